// One engine: the planner's choices, checked on the server, the engine a store runs.
// The audit page must stay fast at 1,000,000 rows: every page is read from an
// index in order (keyset), never sorted and never skipped through with OFFSET.
// Filling a million rows takes ~25 s on this machine on either engine, so the
// test fills 50,000 with one set-based INSERT, runs ANALYZE, and checks the
// planner's choice for each kind of page with EXPLAIN.
import { describe, it } from "node:test";
import { expect } from "expect";
import { CompiledQuery, sql } from "kysely";
import { createTestUser, type TestApp } from "../helpers/test_app.ts";
import type { AuditQuery } from "../../src/audit/audit_log.ts";
import { auditPageQuery, listAuditPage, listEntityHistory } from "../../src/audit/audit_log.ts";
import { useTestApp } from "../helpers/suite.ts";

const ROWS = 50_000;
let app: TestApp, userId: string;

useTestApp(async (started) => {
  ({ app } = started);
  userId = (await createTestUser(app.db, { role: "OWNER" })).id;
  // One row a minute going back ~35 days; every 7th by the user; six kinds.
  await sql`INSERT INTO audit_log (at, user_id, actor, action, entity_type, entity_id, details)
    SELECT now() - g * interval '1 minute',
      CASE WHEN g % 7 = 0 THEN ${userId}::uuid END,
      'filler',
      (ARRAY['client.update', 'quote.save', 'catalog.update', 'auth.login', 'user.create',
        'settings.update'])[1 + g % 6],
      (ARRAY['client', 'quote', 'materials', 'user', 'user', 'settings'])[1 + g % 6],
      (g % 5000)::text,
      '{}'::jsonb
    FROM generate_series(1, ${ROWS}) AS g`.execute(app.db);
  await sql`ANALYZE audit_log`.execute(app.db);
});

async function plan(query: { compile(): CompiledQuery }): Promise<string> {
  const compiled = query.compile();
  const result = await app.db.executeQuery<Record<string, string>>(
    CompiledQuery.raw(`EXPLAIN ${compiled.sql}`, [...compiled.parameters]),
  );
  return result.rows.map((r) => Object.values(r)[0]).join("\n");
}

async function pagePlan(query: AuditQuery) {
  return await plan(auditPageQuery(app.db, query));
}

function expectIndexWalk(text: string, index: string) {
  expect(text).toMatch(new RegExp(`Index Scan( Backward)? using ${index} on audit_log`));
  // Read in index order: nothing sorted, nothing read whole.
  expect(text).not.toMatch(/\bSort\b/);
  expect(text).not.toContain("Seq Scan");
}

describe("audit log at scale", () => {
  it("the first page, a deep page and the way back are index walks on (at, id)", async () => {
    const first = await listAuditPage(app.db, {});
    expect(first.entries.length).toBe(50);
    expectIndexWalk(await pagePlan({}), "audit_log_at_id_idx");

    // A page far down: its cursor comes from the row at position 40,000.
    const deep = await sql<{ at: string; id: string }>`
      SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id::text AS id
      FROM audit_log ORDER BY at DESC, id DESC OFFSET 40000 LIMIT 1`.execute(app.db);
    const cursor = deep.rows[0];
    const deepText = await pagePlan({ before: cursor });
    expectIndexWalk(deepText, "audit_log_at_id_idx");
    expect(deepText).toMatch(/Index Cond: \(ROW\(at, id\) < ROW\(/);
    const deepPage = await listAuditPage(app.db, { before: cursor });
    expect(deepPage.entries.length).toBe(50);
    expect(deepPage.entries[0].at < cursor.at).toBe(true);

    const backText = await pagePlan({ after: cursor });
    expectIndexWalk(backText, "audit_log_at_id_idx");
    expect(backText).toContain("Index Scan Backward");
  });

  it("each filter walks an index that ends in (at, id)", async () => {
    expectIndexWalk(await pagePlan({ kind: "quote" }), "audit_log_kind_at_idx");
    expectIndexWalk(await pagePlan({ userId }), "audit_log_user_at_idx");
    const from = new Date(Date.now() - 3 * 86_400_000);
    const to = new Date(Date.now() - 2 * 86_400_000);
    expectIndexWalk(await pagePlan({ from, to }), "audit_log_at_id_idx");
    expectIndexWalk(await pagePlan({ kind: "auth", from, to }), "audit_log_kind_at_idx");
    const filtered = await listAuditPage(app.db, { kind: "auth", from, to });
    expect(filtered.entries.length).toBe(50);
    for (const e of filtered.entries) expect(e.kind).toBe("auth");
  });

  it("one record's history reads its own index", async () => {
    const text = await plan(
      app.db.selectFrom("auditLog").select("id").where("entityType", "=", "client")
        .where("entityId", "=", "42").orderBy("at", "desc").orderBy("id", "desc").limit(200),
    );
    // A record has few entries: the planner may sort those few, but never scans the table.
    expect(text).toContain("audit_log_entity_at_idx");
    expect(text).not.toContain("Seq Scan");
    const count = await sql<{ n: string }>`SELECT count(*)::text AS n FROM audit_log
      WHERE entity_type = 'client' AND entity_id = '42'`.execute(app.db);
    expect((await listEntityHistory(app.db, "client", "42")).length).toBe(Number(count.rows[0].n));
  });
});
