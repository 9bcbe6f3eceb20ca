import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "./database.ts";

/**
 * A throwaway in-memory PGlite started from a migrated data directory instead
 * of from initdb and every migration: PGlite's initdb and the migrations are
 * about 2 s of CPU, loading a kept directory a fraction of that. The backup's
 * scratch copy of a server (src/backup/dump.ts) keeps one in memory for the
 * process; the test databases (tests/helpers/database.ts) keep one as a file
 * for every test process. Both take it with dataDirOf and load it as
 * PGlite's loadDataDir (the tests through openDatabase's option of that name).
 */

/**
 * The data directory of `pg` as a tarball (PGlite's dumpDataDir). A migrated
 * empty database is 43 MB as is, 5 MB gzipped; either loads in about 0.4 s
 * (gzip takes 0.3 s to write instead of 0.2). Kept in memory, gzip; as a file
 * read again and again, either.
 */
export async function dataDirOf(pg: PGlite, compression: "none" | "gzip"): Promise<Blob> {
  return await pg.dumpDataDir(compression);
}

/** A fresh in-memory PGlite, with the app's extensions, starting from `dataDir` if given. */
export async function scratchPglite(dataDir?: Blob): Promise<PGlite> {
  const pg = new PGlite({ extensions: pgliteExtensions, loadDataDir: dataDir });
  await pg.waitReady;
  return pg;
}
