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

export const silentLogger: Logger = { log() {} };
