import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { sql } from "kysely";
import { join } from "node:path";
import type { DatabaseHandle, DB } from "../../src/db/database.ts";
import { migrateToLatest } from "../../src/db/migrate.ts";
import { ensureFirstOwner } from "../../src/auth/owner_bootstrap.ts";
import { seedDemoStore } from "../../src/seed/demo_store.ts";
import { enqueueEmail } from "../../src/mail/outbox.ts";
import { createSession, generateSessionToken } from "../../src/auth/session.ts";
import { loadConfig } from "../../src/config/config.ts";
import { readManifest } from "../../src/assets/manifest.ts";
import { PdfPool } from "../../src/pdf/pdf_pool.ts";
import { createApp } from "../../routes/app.ts";
import { silentLogger } from "../../src/http/logger.ts";
import { createPersistentTestDatabase, type PersistentTestDatabase } from "../helpers/database.ts";
import { projectRoot } from "../helpers/process.ts";

const ON_SERVER = Boolean(Deno.env.get("TEST_DATABASE_URL"));
const OWNER = { username: "olivia", password: "owner-pass-123", email: "olivia@store.test" };
const UPLOAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 7]);

/** `deno task backup|restore …` as a store runs it. */
async function task(env: Record<string, string>, ...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", ...args],
    cwd: projectRoot,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  return { code: out.code, text };
}

/** Every row of every table of the schema (found in the catalog), in a stable order. */
async function snapshot(db: DB): Promise<Record<string, string[]>> {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`.execute(db);
  const all: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ r: string }>`SELECT t::text AS r FROM ${sql.table(name)} t`
      .execute(db);
    all[name] = rows.map((r) => r.r).sort();
  }
  const { rows: seqs } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY 1`.execute(db);
  for (const { name } of seqs) {
    const { rows } = await sql<{ r: string }>`SELECT last_value::text || ' ' || is_called AS r
      FROM ${sql.table(name)}`.execute(db);
    all[`sequence ${name}`] = rows.map((r) => r.r);
  }
  return all;
}

async function withDatabase<T>(
  target: PersistentTestDatabase,
  fn: (h: DatabaseHandle) => Promise<T>,
): Promise<T> {
  const handle = await target.open();
  try {
    return await fn(handle);
  } finally {
    await handle.close();
  }
}

let source: PersistentTestDatabase;
let target: PersistentTestDatabase;
let file: string;
let original: Record<string, string[]>;

before(async () => {
  [source, target] = await Promise.all([
    createPersistentTestDatabase(),
    createPersistentTestDatabase(),
  ]);
  file = join(source.env.DATA_DIR, "store.sql");
  // A store in use: owner, staff, catalog, settings, clients, quotes, an
  // upload, a session and a queued e-mail with its attachment.
  original = await withDatabase(source, async ({ db }) => {
    await migrateToLatest(db);
    await ensureFirstOwner(db, OWNER);
    const seeded = await seedDemoStore(db);
    expect(seeded.status).toBe("seeded");
    await db.updateTable("settings").set({ storeName: "Northside Eyewear" }).execute();
    const owner = await db.selectFrom("users").select("id").where("username", "=", OWNER.username)
      .executeTakeFirstOrThrow();
    await db.insertInto("uploadedFiles").values({
      uploadTokenHash: "hash-of-a-used-token",
      purpose: "logo",
      maxBytes: 1024,
      expiresAt: new Date(Date.now() + 60_000),
      contentType: "image/png",
      byteSize: UPLOAD.length,
      data: UPLOAD,
      createdBy: owner.id,
      completedAt: new Date(),
    }).execute();
    await createSession(db, generateSessionToken(), owner.id);
    await enqueueEmail(db, {
      quoteId: null,
      to: "client@example.com",
      subject: "Your quote",
      html: "<p>Hello</p>",
      text: "Hello",
      attachmentName: "quote.pdf",
      attachment: new Uint8Array([37, 80, 68, 70, 0, 1, 2]),
      createdBy: owner.id,
    });
    return await snapshot(db);
  });
});

after(async () => {
  await Promise.all([source?.drop(), target?.drop()]);
});

describe(`deno task backup / restore (${ON_SERVER ? "server" : "PGlite"})`, () => {
  it("writes a consistent snapshot of every table to FILE", async () => {
    const res = await task(source.env, "backup", file);
    expect(res.code).toBe(0);
    expect(res.text).toContain(`Backup written to ${file}`);
    const text = await Deno.readTextFile(file);
    expect(text).toMatch(/^-- Lensdesk backup\n-- engine: (server|embedded)\n/);
    expect(text).toContain("-- PostgreSQL database dump");
    // Only its owner may read it: it holds password hashes and client details.
    expect((await Deno.stat(file)).mode! & 0o777).toBe(0o600);
    // Every table of the schema, none hard-coded: the header lists them all.
    for (const table of Object.keys(original).filter((t) => !t.startsWith("sequence "))) {
      expect(text).toMatch(new RegExp(`^-- rows: .*\\b${table}=${original[table].length}\\b`, "m"));
    }
  });

  it("restores into an empty database: every row and sequence comes back", async () => {
    const res = await task(target.env, "restore", file);
    expect(res.code).toBe(0);
    expect(res.text).toMatch(/Restored the backup taken .* rows in \d+ tables/);
    const restored = await withDatabase(target, ({ db }) => snapshot(db));
    expect(restored).toEqual(original);
    expect(restored.users.length).toBeGreaterThan(1);
    expect(restored.clients.length).toBeGreaterThan(0);
    expect(restored.quotes.length).toBeGreaterThan(0);
    expect(restored.uploaded_files).toHaveLength(1);
  });

  it("gives a working store: the owner signs in and finds the clients and quotes", async () => {
    await withDatabase(target, async (database) => {
      const config = await loadConfig({ ...target.env, LOG_REQUESTS: "0" });
      // No PDF is made here: the pool starts no renderer unless asked.
      const pdf = new PdfPool(config.pdf);
      const app = createApp({
        db: database.db,
        config,
        manifest: await readManifest(),
        logger: silentLogger,
        pdf,
      });
      const login = await app.request("/api/staff/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: OWNER.username, password: OWNER.password }),
      });
      expect(login.status).toBe(200);
      const cookie = login.headers.get("set-cookie")!.split(";")[0];
      const clients = await app.request("/api/clients", { headers: { cookie } });
      expect(clients.status).toBe(200);
      expect((await clients.json() as unknown[]).length).toBeGreaterThan(0);
      const quotes = await app.request("/api/quotes", { headers: { cookie } });
      expect(quotes.status).toBe(200);
      expect(Number(quotes.headers.get("x-total-count"))).toBe(original.quotes.length);
      const upload = await database.db.selectFrom("uploadedFiles").select("data")
        .executeTakeFirstOrThrow();
      expect(new Uint8Array(upload.data!)).toEqual(UPLOAD);
      const settings = await database.db.selectFrom("settings").select("storeName")
        .executeTakeFirstOrThrow();
      expect(settings.storeName).toBe("Northside Eyewear");
    });
  });

  it("refuses a database that is not empty unless --force, which replaces it", async () => {
    await withDatabase(target, async ({ db }) => {
      await db.deleteFrom("optionItems").execute();
      await db.updateTable("settings").set({ storeName: "Changed after the backup" }).execute();
    });
    const changed = await withDatabase(target, ({ db }) => snapshot(db));

    const refused = await task(target.env, "restore", file);
    expect(refused.code).toBe(1);
    expect(refused.text).toContain("This database is not empty");
    expect(refused.text).toContain("--force");
    expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(changed);

    const forced = await task(target.env, "restore", file, "--force");
    expect(forced.code).toBe(0);
    expect(forced.text).toContain("replacing what was there");
    expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(original);
  });

  it("refuses a file that is not a Lensdesk backup, changing nothing", async () => {
    const bogus = join(source.env.DATA_DIR, "bogus.sql");
    await Deno.writeTextFile(bogus, "DROP TABLE users;\n");
    const res = await task(target.env, "restore", bogus, "--force");
    expect(res.code).toBe(1);
    expect(res.text).toContain("not a Lensdesk backup");
    expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(original);
  });

  it(
    "restores a server backup on PGlite and a PGlite backup on the server (same pg_dump script)",
    { skip: !ON_SERVER && "needs TEST_DATABASE_URL (this run is PGlite only)" },
    async () => {
      const embedded = await createPersistentTestDatabase("embedded");
      try {
        const toPglite = await task(embedded.env, "restore", file);
        expect(toPglite.code).toBe(0);
        expect(await withDatabase(embedded, ({ db }) => snapshot(db))).toEqual(original);

        const fromPglite = join(embedded.env.DATA_DIR, "from-pglite.sql");
        expect((await task(embedded.env, "backup", fromPglite)).code).toBe(0);
        expect(await Deno.readTextFile(fromPglite)).toMatch(
          /^-- Lensdesk backup\n-- engine: embedded/,
        );
        const toServer = await task(target.env, "restore", fromPglite, "--force");
        expect(toServer.code).toBe(0);
        expect(await withDatabase(target, ({ db }) => snapshot(db))).toEqual(original);
      } finally {
        await embedded.drop();
      }
    },
  );
});
