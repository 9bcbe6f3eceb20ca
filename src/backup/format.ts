import { createHash } from "node:crypto";

/**
 * A backup file is a plain pg_dump script with a few comment lines in front
 * that say what it holds, and one at the end: the end marker with the SHA-256
 * of everything before it. Being comments, they leave the script valid for
 * psql too. A file cut short has no end marker, and a file changed after it
 * was written no longer matches its checksum; restore refuses both.
 */
export const BACKUP_MARK = "-- Lensdesk backup";
export const END_MARK = "-- Lensdesk backup end, sha256:";
/** Files of this format carry the end marker (older ones have no `format` line). */
export const BACKUP_FORMAT = 2;

export interface BackupHeader {
  engine: "embedded" | "server";
  takenAt: Date;
  migrations: string[];
  rows: Record<string, number>;
  /** 2 for sealed files (checksum and end marker); undefined for files made before. */
  format?: number;
}

export function formatHeader(h: BackupHeader): string {
  return [
    BACKUP_MARK,
    `-- format: ${h.format ?? BACKUP_FORMAT}`,
    `-- engine: ${h.engine}`,
    `-- taken: ${h.takenAt.toISOString()}`,
    `-- migrations: ${h.migrations.join(" ")}`,
    `-- rows: ${Object.entries(h.rows).map(([t, n]) => `${t}=${n}`).join(" ")}`,
    "",
    "",
  ].join("\n");
}

/** Reads the header back; undefined when the text is not a Lensdesk backup. */
export function parseHeader(script: string): BackupHeader | undefined {
  if (!script.startsWith(BACKUP_MARK + "\n")) return undefined;
  const head = script.slice(0, script.indexOf("\n\n"));
  const field = (name: string) =>
    new RegExp(`^-- ${name}: ?(.*)$`, "m").exec(head)?.[1].trim() ?? undefined;
  const engine = field("engine");
  const taken = field("taken");
  const migrations = field("migrations");
  const rows = field("rows");
  const format = field("format");
  if (
    (engine !== "embedded" && engine !== "server") || !taken || migrations === undefined ||
    rows === undefined || !/-- PostgreSQL database dump/.test(script.slice(0, 4096))
  ) {
    return undefined;
  }
  return {
    format: format === undefined ? undefined : Number(format),
    engine,
    takenAt: new Date(taken),
    migrations: migrations.split(" ").filter(Boolean),
    rows: Object.fromEntries(
      rows.split(" ").filter(Boolean).map((pair) => {
        const [table, n] = pair.split("=");
        return [table, Number(n)];
      }),
    ),
  };
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** The whole file: `content` (header and script) followed by the end marker with its checksum. */
export function sealBackup(content: string): string {
  const body = content.endsWith("\n") ? content : content + "\n";
  return `${body}${END_MARK}${sha256(body)}\n`;
}

export type SealCheck =
  | { ok: true; content: string }
  | { ok: false; problem: "no_end" | "checksum" };

/**
 * Whether `file` ends with its end marker and the checksum in it matches
 * everything before; `content` is then the file without that line.
 */
export function checkSeal(file: string): SealCheck {
  const text = file.endsWith("\n") ? file.slice(0, -1) : file;
  const start = text.lastIndexOf("\n") + 1;
  const last = text.slice(start);
  if (!last.startsWith(END_MARK)) return { ok: false, problem: "no_end" };
  const content = text.slice(0, start);
  const expected = last.slice(END_MARK.length).trim();
  if (!/^[0-9a-f]{64}$/.test(expected) || sha256(content) !== expected) {
    return { ok: false, problem: "checksum" };
  }
  return { ok: true, content };
}

/** `lensdesk-<engine>-20250102-023000.sql`: sorts by time, says where it came from. */
export function backupFileName(engine: string, at: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-` +
    `${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `lensdesk-${engine}-${stamp}.sql`;
}
