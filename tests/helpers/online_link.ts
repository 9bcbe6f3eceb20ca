// Reading the online link out of a quote e-mail as a mail server received it
// (quoted-printable soft breaks undone), for the API and browser tests.
import { sql } from "kysely";
import type { DB } from "../../src/db/database.ts";
import { mailSettingsFor, type ReceivedMail, type SmtpServer } from "./smtp.ts";
import { call, createTestUser, sessionCookieFor, type TestApp } from "./test_app.ts";
import { insertSavedQuote } from "./quote_fixture.ts";
import { createQuoteLink } from "../../src/quotes/online_links.ts";

/** The raw message with quoted-printable soft line breaks and `=3D` undone. */
export function unfoldQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=3D/gi, "=");
}

/** The `/q/{token}` path of the newest mail to `to` that carries one. */
export function onlineLinkIn(mails: ReceivedMail[], to: string): string | undefined {
  for (const mail of [...mails].reverse()) {
    if (!mail.to.includes(to)) continue;
    const found = unfoldQuotedPrintable(mail.raw).match(/\/q\/([A-Za-z0-9_-]{43})/);
    if (found) return found[0];
  }
  return undefined;
}

/**
 * The store both online-acceptance test files start from: an owner whose
 * e-mail hears of acceptances, and mail sent through the loopback server.
 * Returns the owner's session cookie.
 */
export async function storeWithMail(
  app: TestApp,
  smtp: SmtpServer,
  ownerEmail: string,
): Promise<string> {
  const owner = await createTestUser(app.db, { role: "OWNER" });
  await app.db.updateTable("users").set({ email: ownerEmail }).where("id", "=", owner.id)
    .execute();
  const cookie = await sessionCookieFor(app.db, owner.id);
  const res = await call(app, "PUT", "/api/admin/settings", {
    cookie,
    body: {
      ...mailSettingsFor(smtp, { fromEmail: "quotes@northside.test" }),
      storeName: "Northside Eyewear",
      storePhone: "(555) 222-3333",
      storeEmail: "hello@northside.test",
    },
  });
  if (res.status !== 200) throw new Error(`settings refused: ${JSON.stringify(res.body)}`);
  return cookie;
}

/**
 * Every table of the schema that has a row holding `text` in clear, with how
 * many: any column read as text (JSON included), and byte columns (an e-mail's
 * attachment, a kept PDF) searched for its UTF-8 bytes. Compressed columns
 * (kept answers, gzipped) cannot be searched this way.
 */
export async function tablesHolding(db: DB, text: string): Promise<Record<string, number>> {
  const columns = await sql<{ table: string; column: string; type: string }>`
    select c.table_name as "table", c.column_name as "column", c.data_type as "type"
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db);
  const byTable = new Map<string, { column: string; type: string }[]>();
  for (const { table, column, type } of columns.rows) {
    byTable.set(table, [...byTable.get(table) ?? [], { column, type }]);
  }
  const found: Record<string, number> = {};
  for (const [table, cols] of byTable) {
    const holds = cols.map(({ column, type }) =>
      type === "bytea"
        ? sql`position(convert_to(${text}, 'UTF8') in ${sql.ref(column)}) > 0`
        : sql`strpos(${sql.ref(column)}::text, ${text}) > 0`
    );
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(table)}
      where ${sql.join(holds, sql` or `)}`.execute(db);
    if (rows[0].n > 0) found[table] = rows[0].n;
  }
  return found;
}

/**
 * An open quote (ten days left) with an online link sent to `sentTo`, made
 * straight in the database: its ids and the link's token.
 */
export async function linkedQuote(db: DB, sentTo: string, firstName: string) {
  const q = await insertSavedQuote(db, {
    expiresAt: new Date(Date.now() + 10 * 86_400_000),
    firstName,
  });
  const { version } = await db.selectFrom("quotes").select("version")
    .where("id", "=", q.quoteId).executeTakeFirstOrThrow();
  const token = await createQuoteLink(db, {
    quoteId: q.quoteId,
    quoteVersion: version,
    sentTo,
    createdBy: null,
  });
  return { ...q, token };
}
