export type LogLevel = "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, msg: string, fields?: Record<string, unknown>): void;
}

/** One JSON object per line: easy to grep, easy for a log shipper. */
export const jsonLogger: Logger = {
  log(level, msg, fields = {}) {
    const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
    if (level === "error") console.error(line);
    else console.log(line);
  },
};

/**
 * The same events as one readable line each (LOG_FORMAT=text), for a person
 * watching `docker compose logs -f`:
 * `2025-01-02T10:00:00.000Z INFO  request GET /clients 200 12ms reqId=… user=…`.
 */
export const textLogger: Logger = {
  log(level, msg, fields = {}) {
    const line = formatTextLine(new Date(), level, msg, fields);
    if (level === "error") console.error(line);
    else console.log(line);
  },
};

export function formatTextLine(
  time: Date,
  level: LogLevel,
  msg: string,
  fields: Record<string, unknown>,
): string {
  const { method, path, status, ms, ...rest } = fields;
  const parts = [time.toISOString(), level.toUpperCase().padEnd(5), msg];
  // A request reads like an access log line; everything else as key=value.
  if (method !== undefined) parts.push(String(method));
  if (path !== undefined) parts.push(String(path));
  if (status !== undefined) parts.push(String(status));
  if (ms !== undefined) parts.push(`${ms}ms`);
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    parts.push(`${key}=${/[\s"=]/.test(text) ? JSON.stringify(text) : text}`);
  }
  return parts.join(" ");
}

export function loggerFor(format: "json" | "text"): Logger {
  return format === "text" ? textLogger : jsonLogger;
}

export const silentLogger: Logger = { log() {} };
