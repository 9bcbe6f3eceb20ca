import { isDatabaseUnavailable } from "../db/errors.ts";

/**
 * The one line a person reads when the app cannot start. The mistakes people
 * make at a first start (a database it cannot reach or that refuses it, a
 * data folder it may not write or that another process holds, a port in use)
 * get a sentence that says what to do; anything else its own message. Never
 * a stack trace: main.ts prints this line and exits 1.
 */
export function startupProblem(
  err: unknown,
  where: { host?: string; port?: number; dataDir?: string; databaseUrl?: string },
): string {
  const chain = causes(err);
  const code = chain.map((e) => (e as { code?: unknown }).code).find((c) =>
    typeof c === "string"
  ) as
    | string
    | undefined;
  const text = chain.map((e) => (e instanceof Error ? e.message : String(e))).join(" ");
  const database = where.databaseUrl ? describeUrl(where.databaseUrl) : "the database";

  if (chain.some((e) => e instanceof Deno.errors.AddrInUse) || code === "EADDRINUSE") {
    return `Port ${where.port} on ${where.host} is already in use by another program: ` +
      "stop that program, or set PORT to a free port.";
  }
  if (code === "28P01" || code === "28000") {
    return `${database} refused the user or password in DATABASE_URL. POSTGRES_USER and ` +
      "POSTGRES_PASSWORD are applied only when the database volume is first created; to " +
      "change the password later see docs/operations.md, 'Changing the database password'.";
  }
  if (code === "3D000") {
    return `${database} does not exist on that server: create it, or correct DATABASE_URL.`;
  }
  if (
    code === "ENOTFOUND" || chain.some(isDatabaseUnavailable) ||
    chain.some((e) => e instanceof Deno.errors.ConnectionRefused)
  ) {
    return `Cannot reach ${database} (${reason(code)}): check DATABASE_URL and that the ` +
      "database server is running.";
  }
  if (/in use by another Lensdesk process/.test(text)) {
    return chain.map((e) => (e instanceof Error ? e.message : "")).find((m) =>
      /in use by another Lensdesk process/.test(m)
    )!;
  }
  if (
    chain.some((e) =>
      e instanceof Deno.errors.PermissionDenied ||
      e instanceof Deno.errors.NotADirectory
    ) || code === "EACCES" || code === "EPERM" || code === "EROFS" ||
    /Read-only file system/.test(text)
  ) {
    return `The data folder ${where.dataDir} cannot be written (${firstLine(text)}): give the ` +
      "app's user write access to it (the container's is uid 1993), or set DATA_DIR to another " +
      "folder.";
  }
  return firstLine(text) || "unknown error";
}

function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e: unknown = err; e !== undefined && e !== null && out.length < 10;) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

function reason(code: string | undefined): string {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host name not found";
    case "57P03":
      return "the server is starting up or shutting down";
    case "57P01":
    case "57P02":
      return "the server closed the connection";
    case "53300":
      return "the server has no connection to spare";
    default:
      return "no answer";
  }
}

/** "the database lensdesk on db:5432", without the password. */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    const name = decodeURIComponent(u.pathname.replace(/^\//, "")) || "(default)";
    return `the database ${name} on ${u.hostname}:${u.port || 5432}`;
  } catch {
    return "the database";
  }
}

const firstLine = (text: string) => text.split("\n")[0].trim();
