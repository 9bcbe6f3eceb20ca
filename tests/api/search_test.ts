import { describe, it } from "node:test";
import { expect } from "expect";
import {
  call,
  createTestUser,
  sessionCookieFor,
  signedInUser,
  type TestApp,
} from "../helpers/test_app.ts";
import type { SearchResult } from "../../src/search/views.ts";
import type { ClientSummary } from "../../src/clients/views.ts";
import type { QuoteListRow } from "../../src/quotes/views.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, cookie: string;
const ids: Record<string, string> = {};
const quotes: Record<string, { id: string; quoteNumber: string }> = {};

async function insertClient(
  key: string,
  values: { firstName: string; lastName: string; email?: string; mobilePhone?: string },
) {
  const row = await app.db.insertInto("clients").values(values).returning("id")
    .executeTakeFirstOrThrow();
  ids[key] = row.id;
  return row.id;
}

async function insertQuote(key: string, clientKey: string, optician: string, ageMs: number) {
  quotes[key] = await app.db.insertInto("quotes").values({
    clientId: ids[clientKey],
    opticianName: optician,
    status: "ACTIVE",
    createdAt: new Date(Date.now() - ageMs),
  }).returning(["id", "quoteNumber"]).executeTakeFirstOrThrow();
}

useTestApp(async (started) => {
  ({ app } = started);
  ({ cookie: cookie } = await signedInUser(app.db));
  await insertClient("annLee", {
    firstName: "Ann",
    lastName: "Lee",
    email: "ann.lee@example.com",
    mobilePhone: "(555) 010-2030",
  });
  await insertClient("annabel", { firstName: "Annabel", lastName: "Ng" });
  await insertClient("ashlee", { firstName: "Ashlee", lastName: "Adams" });
  await insertClient("joann", { firstName: "Joann", lastName: "Smith", email: "jo@example.com" });
  await insertClient("underscore", { firstName: "Una", lastName: "Dee", email: "a_b@example.com" });
  await insertClient("noUnderscore", {
    firstName: "Xavi",
    lastName: "Ray",
    email: "axb@example.com",
  });
  await insertClient("percent", { firstName: "Percy", lastName: "100%Pure" });
  await insertClient("backslash", { firstName: "Bea", lastName: "Back\\Slash" });
  for (let i = 0; i < 7; i++) {
    await insertClient(`zed${i}`, { firstName: `Zed${i}`, lastName: "Quark" });
  }
  await insertQuote("annLeeOld", "annLee", "Dr. Ortiz", 60_000);
  await insertQuote("annLeeNew", "annLee", "Dr. Ortiz", 1_000);
  await insertQuote("joann", "joann", "Dr. Kim", 30_000);
  // Its e-mail holds the last digits of a quote number, somewhere in the middle.
  const tail = quotes.annLeeOld.quoteNumber.slice(-4);
  await insertClient("tally", {
    firstName: "Tally",
    lastName: "Fan",
    email: `x${tail}y@example.com`,
  });
});

const search = (q: string, who = cookie) =>
  call<SearchResult[]>(app, "GET", `/api/search?q=${encodeURIComponent(q)}`, { cookie: who });
const titles = (rows: SearchResult[]) => rows.map((r) => r.title);

describe("GET /api/search", () => {
  it("needs more than 2 characters, spaces not counted", async () => {
    for (const q of ["", "a", "an", "  an  "]) {
      const res = await search(q);
      expect([q, res.status, res.body]).toEqual([q, 200, []]);
    }
    expect((await call(app, "GET", "/api/search", { cookie })).body).toEqual([]);
    expect(titles((await search("ann")).body).length).toBeGreaterThan(0);
  });

  it("answers {id, type, title, subtitle, href} for clients and quotes", async () => {
    const res = await search("ann lee");
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      id: ids.annLee,
      type: "client",
      title: "Ann Lee",
      subtitle: "ann.lee@example.com · (555) 010-2030",
      href: `/clients?id=${ids.annLee}`,
    });
    const quote = res.body.find((r) => r.type === "quote")!;
    expect(quote).toEqual({
      id: quotes.annLeeNew.id,
      type: "quote",
      title: quotes.annLeeNew.quoteNumber,
      subtitle: "Ann Lee · Active · Dr. Ortiz",
      href: `/quote/${quotes.annLeeNew.id}`,
    });
  });

  it("finds clients by name, e-mail and phone digits", async () => {
    expect(titles((await search("smith")).body)).toEqual(["Joann Smith", quotes.joann.quoteNumber]);
    expect(titles((await search("JO@EXAMPLE")).body)).toEqual(["Joann Smith"]);
    // Digits only, whatever the punctuation typed or stored.
    expect((await search("555 010 2030")).body.filter((r) => r.type === "client").map((r) => r.id))
      .toEqual([ids.annLee]);
    expect((await search("0102030")).body.map((r) => r.id)).toEqual([ids.annLee]);
  });

  it("searches phones only with a word that looks like a phone number", async () => {
    await insertClient("phone1985", {
      firstName: "Paula",
      lastName: "Phone",
      mobilePhone: "555-198-5000",
    });
    await insertClient("maria1985", {
      firstName: "Maria",
      lastName: "Mail",
      email: "maria1985@example.com",
    });
    const names = async (path: string) => {
      const res = await call<Array<SearchResult | ClientSummary>>(app, "GET", path, { cookie });
      expect(res.status).toBe(200);
      return res.body.flatMap((row) =>
        "type" in row
          ? (row.type === "client" ? [row.title] : [])
          : [`${row.firstName} ${row.lastName}`]
      );
    };
    // The staff bar and the client search (the client list's search box).
    for (const path of ["/api/search?q=", "/api/clients/search?q="]) {
      // Letters and digits: the e-mail holds it; Paula's phone holds only its digits.
      expect(await names(`${path}maria1985`)).toEqual(["Maria Mail"]);
      // Digits alone are a phone fragment: Paula's number holds 1985.
      expect(await names(`${path}1985`)).toContain("Paula Phone");
      expect(await names(`${path}${encodeURIComponent("(555) 198")}`)).toContain("Paula Phone");
    }
  });

  it("finds quotes by number, client name and optician", async () => {
    const byNumber = await search(quotes.joann.quoteNumber.toLowerCase());
    expect(byNumber.body.map((r) => r.id)).toEqual([quotes.joann.id]);
    const byOptician = (await search("ortiz")).body;
    expect(byOptician.map((r) => r.id)).toEqual([quotes.annLeeNew.id, quotes.annLeeOld.id]);
    const byClient = (await search("joann smith")).body.filter((r) => r.type === "quote");
    expect(byClient.map((r) => r.id)).toEqual([quotes.joann.id]);
  });

  it("puts the best matches first, whatever their type", async () => {
    // A name that starts with the text comes before one that only contains it.
    const clients = (await search("ann")).body.filter((r) => r.type === "client");
    expect(titles(clients)).toEqual(["Ann Lee", "Annabel Ng", "Joann Smith"]);
    expect(titles((await search("lee")).body.filter((r) => r.type === "client")))
      .toEqual(["Ann Lee", "Ashlee Adams"]);
    // Quotes whose client's name starts with it first, even the older one.
    const quoteRows = (await search("ann")).body.filter((r) => r.type === "quote");
    expect(quoteRows.map((r) => r.id)).toEqual([
      quotes.annLeeNew.id,
      quotes.annLeeOld.id,
      quotes.joann.id,
    ]);
    // A quote number ending with the digits typed beats a client whose e-mail
    // merely contains them: the quote leads the answer.
    const tail = quotes.annLeeOld.quoteNumber.slice(-4);
    expect((await search(tail)).body.map((r) => [r.type, r.id])).toEqual([
      ["quote", quotes.annLeeOld.id],
      ["client", ids.tally],
    ]);
  });

  it("gives at most 5 of each type", async () => {
    const res = await search("quark");
    expect(res.body.length).toBe(5);
    expect(res.body.every((r) => r.type === "client")).toBe(true);
  });

  it("takes %, _ and backslash literally", async () => {
    expect(titles((await search("a_b")).body)).toEqual(["Una Dee"]);
    expect(titles((await search("%pure")).body)).toEqual(["Percy 100%Pure"]);
    expect((await search("%%%")).body).toEqual([]);
    expect((await search("___")).body).toEqual([]);
    expect(titles((await search("k\\s")).body)).toEqual(["Bea Back\\Slash"]);
    expect((await search("\\\\\\")).body).toEqual([]);
  });

  it("is open to every signed-in role and to no one signed out", async () => {
    const expected = (await search("ann lee")).body;
    for (const role of ["AUTHORIZED_USER", "ADMIN", "OWNER"] as const) {
      const user = await createTestUser(app.db, { role });
      const res = await search("ann lee", await sessionCookieFor(app.db, user.id));
      expect([role, res.status, res.body]).toEqual([role, 200, expected]);
    }
    const signedOut = await call<{ message: string }>(app, "GET", "/api/search?q=ann");
    expect(signedOut.status).toBe(401);
    expect(signedOut.body.message).toContain("Unauthorized");
  });

  it("refuses a query over 200 characters with a 400", async () => {
    const res = await search("x".repeat(201));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: expect.stringContaining("200") });
  });

  it("follows a client's new name in quote search", async () => {
    const client = await insertClient("rename", { firstName: "Old", lastName: "Name" });
    await insertQuote("rename", "rename", "", 0);
    await app.db.updateTable("clients").set({ lastName: "Renamedson" })
      .where("id", "=", client).execute();
    const res = (await search("renamedson")).body;
    expect(res.map((r) => [r.type, r.id])).toEqual([
      ["client", client],
      ["quote", quotes.rename.id],
    ]);
    expect(res[1].subtitle).toBe("Old Renamedson · Active");
  });
});

describe("the list searches use the same matching", () => {
  it("client search and quote search take wildcards literally", async () => {
    const clients = await call<ClientSummary[]>(app, "GET", "/api/clients/search?q=a_b", {
      cookie,
    });
    expect(clients.body.map((c) => c.id)).toEqual([ids.underscore]);
    const rows = await call<QuoteListRow[]>(app, "GET", "/api/quotes?q=%25", { cookie });
    expect(rows.body).toEqual([]);
    const byClient = await call<QuoteListRow[]>(app, "GET", "/api/quotes?q=joann%20smith", {
      cookie,
    });
    expect(byClient.body.map((r) => r.id)).toEqual([quotes.joann.id]);
  });
});
