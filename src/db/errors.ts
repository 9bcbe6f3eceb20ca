/**
 * True for PostgreSQL's unique_violation (23505), as both engines report it:
 * pg throws a DatabaseError and PGlite its own, each with the SQLSTATE in
 * `code`. Two requests that both checked "not taken" and then inserted meet
 * here; the loser gets a 409 instead of a 500.
 */
export function isUniqueViolation(err: unknown): boolean {
  return codeOf(err) === "23505";
}

function codeOf(err: unknown): string | undefined {
  const code = typeof err === "object" && err !== null
    ? (err as { code?: unknown }).code
    : undefined;
  return typeof code === "string" ? code : undefined;
}

/**
 * SQLSTATEs that say the server went away or is not taking connections:
 * admin_shutdown (a connection terminated, a fast or smart shutdown),
 * crash_shutdown (an immediate one), cannot_connect_now (starting up or
 * shutting down), the connection_exception class and too_many_connections.
 */
const UNAVAILABLE_STATES = new Set([
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "08P01",
  "53300",
]);

/** Socket errors on the way to the server. */
const UNAVAILABLE_SOCKET = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "EAI_AGAIN",
]);

/**
 * What pg, its pool and Kysely's driver say when a connection is lost or cannot
 * be had: they carry no code.
 */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated due to connection timeout$/,
  /is not queryable$/,
  /^Postgres connection has been discarded$/,
  /^Client was closed and is not queryable$/,
];

/**
 * True when a statement failed because the database server could not be
 * reached or dropped the connection (a restart, a failover, a network blip),
 * as opposed to a statement the server refused. Such a request is answered
 * 503 with Retry-After: the next try may well succeed.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = codeOf(err);
  if (code && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SOCKET.has(code))) return true;
  // Node's connect tries every address of a name and reports them together.
  const inner = (err as { errors?: unknown }).errors;
  if (Array.isArray(inner) && inner.length && inner.every(isDatabaseUnavailable)) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === "string" && UNAVAILABLE_MESSAGES.some((m) => m.test(message));
}

/** query_canceled (57014): the statement ran past its statement_timeout. */
export function isStatementTimeout(err: unknown): boolean {
  return codeOf(err) === "57014";
}

/**
 * serialization_failure (40001) and deadlock_detected (40P01): two writes
 * met, and PostgreSQL rolled one back whole; sent again, it runs afresh.
 */
export function isRetryableConflict(err: unknown): boolean {
  const code = codeOf(err);
  return code === "40001" || code === "40P01";
}
