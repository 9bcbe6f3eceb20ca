/**
 * True for PostgreSQL's unique_violation (23505), as both engines report it:
 * postgres.js throws a PostgresError and PGlite a DatabaseError, each with the
 * SQLSTATE in `code`. Two requests that both checked "not taken" and then
 * inserted meet here; the loser gets a 409 instead of a 500.
 */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "23505";
}
