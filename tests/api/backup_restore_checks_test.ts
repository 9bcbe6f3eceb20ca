// deno task restore refusing a damaged file or a database it must not replace,
// leaving everything as it was; a restored store knows the backup it came from.
import { before, describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { migrateTo } from "../../src/db/migrate.ts";
import { createPersistentTestDatabase } from "../helpers/database.ts";
import { END_MARK, sealBackup } from "../../src/backup/format.ts";
import {
  backupReports,
  changedBackup,
  exists,
  file,
  listTree,
  ON_SERVER,
  original,
  resealed,
  snapshot,
  source,
  storeData,
  target,
  task,
  useBackupStores,
  withDatabase,
} from "./backup_fixture.ts";

useBackupStores({ restored: true });

describe(
  `a restore that refuses, and what a restored store knows (${ON_SERVER ? "server" : "PGlite"})`,
  () => {
    describe("restore refuses a damaged file, leaving the target exactly as it was", () => {
      const damaged = changedBackup;
      // The target as the restore before these left it, read once: each
      // refusal below must leave it exactly so, which the next one then relies on.
      let restored: Record<string, string[]>;
      before(async () => {
        restored = await withDatabase(target, ({ db }) => snapshot(db));
        expect(storeData(restored)).toEqual(storeData(original));
      });

      async function expectRefused(path: string, message: string) {
        const res = await task(target.env, "restore", path, "--force");
        expect(res.code).toBe(1);
        expect(res.text.trim()).toBe(message);
        expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(restored);
      }

      it("a file cut short between two statements", async () => {
        const path = await damaged("truncated", (text) => {
          // Cut after the data, before the keys, indexes and triggers.
          const cut = text.indexOf("\nALTER TABLE ONLY");
          expect(cut).toBeGreaterThan(0);
          return text.slice(0, cut + 1);
        });
        await expectRefused(
          path,
          "This backup is incomplete: its end marker is missing (the file was cut short while " +
            "being written or copied). Nothing was changed.",
        );
      });

      it("a file with one value edited (a catalog price)", async () => {
        const path = await damaged("edited", (text) => {
          const m = /^(INSERT INTO public\.lens_types VALUES \('[^']*', '[^']*', )(\d+)\.\d\d, /m
            .exec(text);
          expect(m).not.toBeNull();
          const at = m!.index + m![1].length;
          return text.slice(0, at) + `${Number(m![2]) + 1}` + text.slice(at + m![2].length);
        });
        await expectRefused(
          path,
          "This backup is damaged: its content does not match its checksum (it was changed or " +
            "corrupted after it was written). Nothing was changed.",
        );
      });

      it("a whole file missing its end marker", async () => {
        const path = await damaged("no-end", (text) => {
          const end = text.lastIndexOf(END_MARK);
          expect(end).toBeGreaterThan(0);
          return text.slice(0, end);
        });
        await expectRefused(
          path,
          "This backup is incomplete: its end marker is missing (the file was cut short while " +
            "being written or copied). Nothing was changed.",
        );
      });

      it("a sealed file whose rows differ from its header's counts (checked before the commit)", async () => {
        const path = await damaged("miscounted", (text) => {
          const content = text.slice(0, text.lastIndexOf(END_MARK));
          const rows = original.clients.length;
          return sealBackup(content.replace(/^(-- rows: .*\bclients=)(\d+)/m, `$1${rows + 1}`));
        });
        await expectRefused(
          path,
          `This backup does not hold what its header says: table clients has ${original.clients.length} ` +
            `rows, the header says ${original.clients.length + 1}. Nothing was changed.`,
        );
      });

      it("a file made before backups were sealed, unless --unverified", async () => {
        const path = await damaged(
          "unsealed",
          (text) => text.slice(0, text.lastIndexOf(END_MARK)).replace(/^-- format: \d+\n/m, ""),
        );
        await expectRefused(
          path,
          "This backup was made before backups carried a checksum, so it cannot be checked for " +
            "damage; rerun with --unverified to restore it anyway (its row counts are still " +
            "checked). Nothing was changed.",
        );
        const res = await task(target.env, "restore", path, "--force", "--unverified");
        expect(res.code).toBe(0);
        expect(storeData(await withDatabase(target, ({ db }) => snapshot(db)))).toEqual(
          storeData(original),
        );
      });
    });

    it("a refused restore into a DATA_DIR that did not exist leaves nothing behind", async () => {
      const parent = await Deno.makeTempDir({ prefix: "lensdesk-restore-" });
      try {
        // A folder inside a folder, neither there yet.
        const dataDir = join(parent, "store", "data");
        // On the server the database is the target's (not empty); DATA_DIR only holds the key.
        const env = { ...target.env, DATA_DIR: dataDir };
        const bogus = join(source.env.DATA_DIR, "not-a-backup.sql");
        await Deno.writeTextFile(bogus, "DROP TABLE users;\n");
        const refusals: [string, string[], string][] = [
          ["not a backup", [bogus, "--force"], "not a Lensdesk backup"],
          [
            "damaged",
            [
              await changedBackup("damaged-2", (t) => t.replace("Northside Eyewear", "Southside")),
              "--force",
            ],
            "This backup is damaged",
          ],
          [
            "cut short",
            [
              await changedBackup("cut-2", (t) => t.slice(0, t.indexOf("\nALTER TABLE ONLY") + 1)),
              "--force",
            ],
            "This backup is incomplete",
          ],
          [
            "newer release",
            [
              await resealed(
                "newer",
                (c) => c.replace(/^(-- migrations: .*)$/m, "$1 9999_from_the_future"),
              ),
              "--force",
            ],
            "This backup comes from a newer Lensdesk release (migrations 9999_from_the_future)",
          ],
          [
            "rows unlike its header (found while loading)",
            [
              await resealed(
                "miscounted-2",
                (c) =>
                  c.replace(/^(-- rows: .*\bclients=)(\d+)/m, (_, a, n) => `${a}${Number(n) + 1}`),
              ),
              "--force",
            ],
            "This backup does not hold what its header says",
          ],
          ...(ON_SERVER
            ? [["not empty, no --force", [file], "This database is not empty"] as [
              string,
              string[],
              string,
            ]]
            : []),
        ];
        for (const [what, args, message] of refusals) {
          const res = await task(env, "restore", ...args);
          expect({ what, code: res.code, text: res.text }).toMatchObject({
            what,
            code: 1,
            text: expect.stringContaining(message),
          });
          expect(res.text.trim().split("\n")).toHaveLength(1);
          expect({ what, left: await listTree(parent) }).toEqual({ what, left: [] });
        }
        // DATA_DIR there but empty: a refusal found while loading leaves it empty.
        await Deno.mkdir(dataDir, { recursive: true });
        const [, miscounted, message] = refusals[4];
        const res = await task(env, "restore", ...miscounted);
        expect(res.code).toBe(1);
        expect(res.text).toContain(message);
        expect(await listTree(parent)).toEqual(["store", "store/data"]);
        await Deno.remove(join(parent, "store"), { recursive: true });
        // A restore that goes through makes the folder (and on PGlite the database in it).
        const done = await task(env, "restore", file, "--force");
        expect(done.code).toBe(0);
        expect(await exists(dataDir)).toBe(!ON_SERVER);
      } finally {
        await Deno.remove(parent, { recursive: true });
      }
    });

    describe("a restored store knows the backup it came from", () => {
      const taken = async (path: string) =>
        /^-- taken: (.*)$/m.exec(await Deno.readTextFile(path))![1];

      it("as its last good backup: --check passes and names the file, /readyz and /metrics agree", async () => {
        const fresh = await createPersistentTestDatabase();
        try {
          const res = await task(fresh.env, "restore", file);
          expect(res.code).toBe(0);
          const size = (await Deno.stat(file)).size;
          const at = await taken(file);
          const reports = await backupReports(fresh);
          expect(reports.backup).toMatchObject({
            status: "ok",
            lastSuccess: { at, bytes: size, file, restoredAt: expect.any(String) },
          });
          expect(reports.lastSuccessBytes).toBe(size);
          expect(reports.ok).toBe(1);
          const check = await task(fresh.env, "backup", "--check");
          expect({ code: check.code, text: check.text.trim() }).toEqual({
            code: 0,
            text: `Backups OK: last good backup ${at} (${size} bytes), which this store was ` +
              `restored from (${file}) at ${reports.backup.lastSuccess!.restoredAt}.`,
          });
          // The next backup is the last good one from then on.
          const next = join(fresh.env.DATA_DIR, "next.sql");
          expect((await task(fresh.env, "backup", next)).code).toBe(0);
          expect((await backupReports(fresh)).backup.lastSuccess).toMatchObject({
            file: next,
            restoredAt: null,
          });
        } finally {
          await fresh.drop();
        }
      });

      it("from a release before restored_at (migration 0031): recorded as the last good backup all the same", async () => {
        // A store of that release: its schema as the migrations up to 0030 left it,
        // backed up by this release's backup (which keeps the schema it finds).
        const older = await createPersistentTestDatabase();
        const fresh = await createPersistentTestDatabase();
        try {
          const handle = await older.open();
          try {
            await migrateTo(handle.db, "0030_shared_rate_limits");
          } finally {
            await handle.close();
          }
          const path = join(older.env.DATA_DIR, "before-0031.sql");
          expect((await task(older.env, "backup", path)).code).toBe(0);
          const content = await Deno.readTextFile(path);
          expect(content).toContain("0030_shared_rate_limits");
          expect(content).not.toContain("0031_backup_runs_restored_at");
          expect(content).not.toContain("INSERT INTO public.backup_runs");

          const res = await task(fresh.env, "restore", path);
          expect(res.code).toBe(0);
          const at = await taken(path);
          const size = (await Deno.stat(path)).size;
          const expected = `Backups OK: last good backup ${at} (${size} bytes).`;
          // Read before the app's start migrates it, and after.
          const before = await task(fresh.env, "backup", "--check");
          expect({ code: before.code, text: before.text.trim() }).toEqual({
            code: 0,
            text: expected,
          });
          expect((await task(fresh.env, "migrate")).code).toBe(0);
          const after = await task(fresh.env, "backup", "--check");
          expect({ code: after.code, text: after.text.trim() }).toEqual({
            code: 0,
            text: expected,
          });
        } finally {
          await fresh.drop();
          await older.drop();
        }
      });

      it("taken more than 26 hours ago: --check says overdue and fails", async () => {
        const old = new Date(Date.now() - 27 * 3_600_000).toISOString();
        const path = await resealed("old", (c) => c.replace(/^-- taken: .*$/m, `-- taken: ${old}`));
        const fresh = await createPersistentTestDatabase();
        try {
          expect((await task(fresh.env, "restore", path)).code).toBe(0);
          const check = await task(fresh.env, "backup", "--check");
          expect(check.code).toBe(1);
          expect(check.text.trim()).toMatch(
            new RegExp(`^Backups overdue: last good backup ${old.replace(/\./g, "\\.")} `),
          );
          expect((await backupReports(fresh)).backup.status).toBe("stale");
        } finally {
          await fresh.drop();
        }
      });
    });
  },
);
