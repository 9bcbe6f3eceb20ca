// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * The outcome of each backup (`deno task backup`, and each night of
 * `--nightly`), kept where the app can read it: /readyz and /metrics show the
 * last good backup (when, how large) and the last failure, and the compose
 * `backup` service's health check reads the same. A backup that hangs or
 * fails otherwise leaves nothing on disk, so the database is where its
 * absence shows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE backup_runs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      started_at timestamptz NOT NULL,
      finished_at timestamptz NOT NULL DEFAULT now(),
      ok boolean NOT NULL,
      nightly boolean NOT NULL,
      bytes bigint,
      file text,
      error text
    )`.execute(db);
  await sql`CREATE INDEX backup_runs_ok_finished_idx ON backup_runs (ok, finished_at DESC, id DESC)`
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE backup_runs`.execute(db);
}
