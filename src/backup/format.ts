/**
 * A backup file is a plain pg_dump script with a few comment lines in front
 * that say what it holds; being comments, they leave the script valid for
 * psql too.
 */
export const BACKUP_MARK = "-- Lensdesk backup";

export interface BackupHeader {
  engine: "embedded" | "server";
  takenAt: Date;
  migrations: string[];
  rows: Record<string, number>;
}

export function formatHeader(h: BackupHeader): string {
  return [
    BACKUP_MARK,
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
  if (
    (engine !== "embedded" && engine !== "server") || !taken || migrations === undefined ||
    rows === undefined || !/-- PostgreSQL database dump/.test(script.slice(0, 4096))
  ) {
    return undefined;
  }
  return {
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

/** `lensdesk-<engine>-20250102-023000.sql`: sorts by time, says where it came from. */
export function backupFileName(engine: string, at: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  const stamp = `${at.getFullYear()}${p(at.getMonth() + 1)}${p(at.getDate())}-` +
    `${p(at.getHours())}${p(at.getMinutes())}${p(at.getSeconds())}`;
  return `lensdesk-${engine}-${stamp}.sql`;
}
