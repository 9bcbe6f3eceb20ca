// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
import { describe, it } from "node:test";
import { expect } from "expect";
import { call, createTestUser, sessionCookieFor, type TestApp } from "../helpers/test_app.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import type { CatalogItem } from "../../src/catalog/catalog.ts";
import type { ImportPreview, PreviewRow } from "../../src/catalog/catalog_csv.ts";
import { useTestApp } from "../helpers/suite.ts";

let app: TestApp, owner: string, admin: string, optician: string;

useTestApp(async (started) => {
  ({ app } = started);
  await ensureDefaultCatalog(app.db);
  const cookie = async (role: "OWNER" | "ADMIN" | "AUTHORIZED_USER") =>
    await sessionCookieFor(app.db, (await createTestUser(app.db, { role })).id);
  [owner, admin, optician] = await Promise.all([
    cookie("OWNER"),
    cookie("ADMIN"),
    cookie("AUTHORIZED_USER"),
  ]);
});

async function exportCsv(section: string, cookie = owner) {
  const res = await fetch(`${app.baseUrl}/api/admin/${section}/export.csv`, {
    headers: { cookie },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  expect(res.headers.get("content-disposition")).toMatch(
    new RegExp(`^attachment; filename="${section}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
  );
  // The raw bytes, byte order mark included (Response.text() would drop it).
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
}

async function upload<T = Record<string, unknown>>(
  section: string,
  step: "import" | "import/preview",
  body: string | Uint8Array<ArrayBuffer>,
  options: { cookie?: string; query?: string; type?: string } = {},
) {
  const res = await fetch(
    `${app.baseUrl}/api/admin/${section}/${step}${options.query ? `?${options.query}` : ""}`,
    {
      method: "POST",
      headers: {
        cookie: options.cookie ?? owner,
        "content-type": options.type ?? "text/csv",
        accept: "application/json",
      },
      body,
    },
  );
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed as T };
}

const items = async (section: string) =>
  (await call<CatalogItem[]>(app, "GET", `/api/admin/${section}`, { cookie: owner })).body;

const importsRecorded = async () =>
  (await app.db.selectFrom("auditLog").select("id").where("action", "=", "catalog.import")
    .execute()).length;

describe("catalog CSV export", () => {
  it("has a BOM, a header row and every item (inactive too), prices exact to the cent", async () => {
    const list = await items("materials");
    await call(app, "PUT", `/api/admin/materials/${list[1].id}`, {
      body: { active: false },
      cookie: owner,
    });
    const csv = await exportCsv("materials");
    expect(csv.startsWith("\uFEFFid,name,price,active,sort_order\r\n")).toBe(true);
    const lines = csv.slice(1).trimEnd().split("\r\n");
    expect(lines.length).toBe(list.length + 1);
    const row = lines.find((l) => l.startsWith(list[1].id))!;
    expect(row).toBe(`${list[1].id},${list[1].name},${list[1].price},false,${list[1].sortOrder}`);
    for (const line of lines.slice(1)) expect(line).toMatch(/,\d+\.\d{2},(true|false),-?\d+$/);
    // Packages carry their description.
    expect((await exportCsv("packages")).split("\r\n")[0]).toBe(
      "\uFEFFid,name,description,price,active,sort_order",
    );
  });

  it("serves a template with the header row alone", async () => {
    const res = await fetch(`${app.baseUrl}/api/admin/add-ons/template.csv`, {
      headers: { cookie: admin },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="add-ons-template.csv"',
    );
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer())).toBe(
      "\uFEFFid,name,price,active,sort_order\r\n",
    );
  });

  it("guards cells that a spreadsheet would run as a formula, and reads them back", async () => {
    const created = await call<CatalogItem>(app, "POST", "/api/admin/add-ons", {
      body: { name: '=HYPERLINK("http://evil.example","Click")', price: "1.00" },
      cookie: owner,
    });
    expect(created.status).toBe(201);
    const csv = await exportCsv("add-ons");
    expect(csv).toContain(
      `${created.body.id},"'=HYPERLINK(""http://evil.example"",""Click"")",1.00`,
    );
    const preview = await upload<ImportPreview>("add-ons", "import/preview", csv);
    expect(preview.status).toBe(200);
    expect(preview.body.counts).toMatchObject({ new: 0, changed: 0, invalid: 0 });
  });
});

describe("catalog CSV import", () => {
  it("round trip: export, edit a price, preview, import; the next export equals the edited file", async () => {
    const original = await exportCsv("lens-types");
    const list = await items("lens-types");
    const target = list[2];
    const line = original.split("\r\n").find((l) => l.startsWith(target.id))!;
    const editedLine = line.replace(`,${target.price},`, ",123.45,");
    expect(editedLine).not.toBe(line);
    const edited = original.replace(line, editedLine);

    const preview = await upload<ImportPreview>("lens-types", "import/preview", edited);
    expect(preview.status).toBe(200);
    expect(preview.body.counts).toEqual({
      new: 0,
      changed: 1,
      unchanged: list.length - 1,
      invalid: 0,
    });
    const changed = preview.body.rows.find((r) => r.status === "changed")!;
    expect(changed).toMatchObject({
      id: target.id,
      line: list.indexOf(target) + 2,
      changes: [{ field: "price", from: target.price, to: "123.45" }],
    });
    // The preview changed nothing.
    expect(await exportCsv("lens-types")).toBe(original);

    const imported = await upload("lens-types", "import", edited, {
      query: `fingerprint=${preview.body.fingerprint}`,
    });
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ created: 0, updated: 1, unchanged: list.length - 1 });
    expect(await exportCsv("lens-types")).toBe(edited);
    const audit = await app.db.selectFrom("auditLog").select(["details", "entityType"])
      .where("action", "=", "catalog.import").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(audit).toMatchObject({
      entityType: "lensTypes",
      details: { created: 0, updated: 1, unchanged: list.length - 1 },
    });

    // A preview made before someone else's change is refused.
    const again = await upload("lens-types", "import", edited, {
      query: `fingerprint=${preview.body.fingerprint}`,
    });
    expect(again.status).toBe(409);
    const forged = await upload("lens-types", "import", edited, { query: "fingerprint=xyz" });
    expect(forged.status).toBe(400);
  });

  it("adds rows without an id, updates a row matched by name, keeps what a blank cell leaves", async () => {
    const before = await items("ar-coatings");
    const named = before[0];
    const csv = [
      "name,price",
      "Blue Shield Max,$1,049.5",
      `${named.name.toUpperCase()},77`,
    ];
    // "$1,049.5" needs quotes in CSV; a spreadsheet writes it that way.
    csv[1] = 'Blue Shield Max,"$1,049.5"';
    const preview = await upload<ImportPreview>("ar-coatings", "import/preview", csv.join("\n"));
    expect(preview.body.rows.map((r) => [r.status, r.name, r.price])).toEqual([
      ["new", "Blue Shield Max", "1049.50"],
      ["changed", named.name.toUpperCase(), "77.00"],
    ]);
    const res = await upload("ar-coatings", "import", csv.join("\n"));
    expect(res.body).toEqual({ created: 1, updated: 1, unchanged: 0 });
    const after = await items("ar-coatings");
    expect(after.length).toBe(before.length + 1);
    const updated = after.find((i) => i.id === named.id)!;
    expect(updated).toMatchObject({
      price: "77.00",
      active: named.active,
      sortOrder: named.sortOrder,
    });
    expect(after.find((i) => i.name === "Blue Shield Max")).toMatchObject({
      price: "1049.50",
      active: true,
      sortOrder: 0,
    });
  });

  it("reads a semicolon file with decimal commas as typed: 259,00 is $259.00, 1.234,50 is $1,234.50", async () => {
    const list = await items("materials");
    const [a, b, c] = list;
    const semicolons = [
      "id;name;price;active;sort_order",
      `${a.id};${a.name};259,00;true;${a.sortOrder}`,
      `${b.id};${b.name};1.234,50;true;${b.sortOrder}`,
      `${c.id};${c.name};1.234;true;${c.sortOrder}`,
    ].join("\r\n");
    const preview = await upload<ImportPreview>("materials", "import/preview", semicolons);
    expect(preview.status).toBe(200);
    const [first, second, third] = preview.body.rows;
    expect(first).toMatchObject({
      line: 2,
      status: a.price === "259.00" ? "unchanged" : "changed",
      price: "259.00",
    });
    expect(second).toMatchObject({ line: 3, price: "1234.50" });
    expect(third).toMatchObject({
      line: 4,
      status: "invalid",
      errors: [
        'Price "1.234" is ambiguous (thousands or decimals?): write 1234.00 for 1234 dollars, ' +
        "or use at most 2 decimals",
      ],
    });
    const refused = await upload<{ errors: Record<string, string> }>(
      "materials",
      "import",
      semicolons,
    );
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors)).toEqual(["line 4"]);
    expect(await items("materials")).toEqual(list);

    const fixed = semicolons.replace(`;1.234;`, ";1.234,00;");
    const imported = await upload("materials", "import", fixed);
    expect(imported.status).toBe(200);
    const after = new Map((await items("materials")).map((i) => [i.id, i.price]));
    expect([after.get(a.id), after.get(b.id), after.get(c.id)]).toEqual([
      "259.00",
      "1234.50",
      "1234.00",
    ]);
  });

  it("refuses invalid rows with their reasons and changes nothing", async () => {
    const original = await exportCsv("materials");
    const list = await items("materials");
    const imports = await importsRecorded();
    const bad = [
      "id,name,price,active,sort_order",
      `${list[0].id},${list[0].name},12.3456,true,1`,
      `${crypto.randomUUID()},Ghost,10.00,true,1`,
      ",,10.00,true,1",
      "not-an-id,Typo,10,maybe,x",
      ",Short Row,10",
      ",Good New Row,10.00,yes,3",
      ",Good New Row,11.00,yes,3",
    ].join("\r\n");
    const preview = await upload<ImportPreview>("materials", "import/preview", bad);
    expect(preview.status).toBe(200);
    const byLine = (rows: PreviewRow[]) => Object.fromEntries(rows.map((r) => [r.line, r]));
    const rows = byLine(preview.body.rows);
    expect(rows[2].errors).toEqual(["Price must be a number like 129.00"]);
    expect(rows[3].errors).toEqual([
      expect.stringContaining("No item in Materials has the id"),
    ]);
    expect(rows[4].errors).toEqual(["Name is required"]);
    expect(rows[5].errors).toEqual([
      expect.stringContaining('has the id "not-an-id"'),
      "Active must be true or false",
      "Sort order must be a whole number",
    ]);
    expect(rows[6].errors).toEqual(["Has 3 cells; the header row has 5"]);
    expect(rows[7].status).toBe("new");
    expect(rows[8].errors).toEqual(["Line 7 already adds this item"]);
    expect(preview.body.counts).toEqual({ new: 1, changed: 0, unchanged: 0, invalid: 6 });

    const refused = await upload<{ message: string; errors: Record<string, string> }>(
      "materials",
      "import",
      bad,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      "6 rows are invalid, so nothing was imported. Fix them and try again.",
    );
    expect(refused.body.errors["line 2"]).toBe("Price must be a number like 129.00");
    expect(Object.keys(refused.body.errors)).toEqual([
      "line 2",
      "line 3",
      "line 4",
      "line 5",
      "line 6",
      "line 8",
    ]);
    expect(await exportCsv("materials")).toBe(original);
    expect(await importsRecorded()).toBe(imports);
  });

  it("refuses bad files with a clear message and changes nothing", async () => {
    const original = await exportCsv("add-ons");
    const cases: [string | Uint8Array<ArrayBuffer>, string][] = [
      ["", "The file is empty. Start from the template."],
      ["\uFEFF", "The file is empty. Start from the template."],
      ["id,name,price\r\n", "The file has a header row but no items."],
      ["name,cost\r\nA,1", 'Unknown column "cost" in the header row.'],
      ["name,description,price\r\nA,B,1", 'Unknown column "description" in the header row.'],
      ["id,name\r\n,A", "The header row must name the columns price."],
      ["name,price,Price\r\nA,1,2", 'The column "price" appears twice in the header row.'],
      [
        'name,price\r\nA,1\r\n"Unclosed,1\r\n',
        "The file is not valid CSV: line 3, column 1: a quoted cell starts here and is never " +
        "closed.",
      ],
      [
        'name;price\r\nA;1\r\nB 5" frame;2\r\n',
        'The file is not valid CSV: line 3, column 1: a quote (") inside a cell',
      ],
      [new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xc3, 0x28]), "The file is not UTF-8 text."],
    ];
    for (const [body, message] of cases) {
      for (const step of ["import/preview", "import"] as const) {
        const res = await upload<{ message: string }>("add-ons", step, body);
        expect(res.status).toBe(400);
        expect(res.body.message).toContain(message);
      }
    }
    const json = await upload("add-ons", "import", "name,price\nA,1", {
      type: "application/json",
    });
    expect(json.status).toBe(415);
    expect(await exportCsv("add-ons")).toBe(original);
  });

  it("takes files up to 5 MB on its own route; over that is a 413 and nothing changes", async () => {
    // ~4.9 MB of packages with long descriptions: over the 1 MiB JSON limit, under 5 MB.
    const description = "Premium lens package with anti-glare, blue light and UV protection. "
      .repeat(14).slice(0, 960);
    const rows = ["name,description,price"];
    for (let i = 0, size = 0; size < 4_900_000; i++) {
      rows.push(`Bulk Package ${i},"${description}",${(i % 500) + 100}.99`);
      size += rows[rows.length - 1].length + 2;
    }
    const big = rows.join("\r\n");
    expect(big.length).toBeGreaterThan(4_800_000);
    expect(big.length).toBeLessThan(5 * 1024 * 1024);
    const preview = await upload<ImportPreview>("packages", "import/preview", big);
    expect(preview.status).toBe(200);
    expect(preview.body.counts.new).toBe(rows.length - 1);
    expect(preview.body.counts.invalid).toBe(0);

    const before = (await items("packages")).length;
    const tooBig = big + "\r\n" + "x".repeat(5 * 1024 * 1024 - big.length);
    for (const step of ["import/preview", "import"] as const) {
      const res = await upload<{ message: string }>("packages", step, tooBig);
      expect(res.status).toBe(413);
      expect(res.body.message).toBe(
        "The file is larger than 5 MB. Split it into smaller files and import each.",
      );
    }
    expect((await items("packages")).length).toBe(before);
    // JSON routes keep their 1 MiB limit.
    const json = await call(app, "POST", "/api/admin/packages", {
      body: { name: "x".repeat(1024 * 1024), price: "1" },
      cookie: owner,
    });
    expect(json.status).toBe(413);

    const applied = await upload<{ created: number }>("packages", "import", big);
    expect(applied.status).toBe(200);
    expect(applied.body.created).toBe(rows.length - 1);
    expect((await items("packages")).length).toBe(before + rows.length - 1);
  });

  it("is for ADMIN and OWNER only", async () => {
    for (const path of ["export.csv", "template.csv"]) {
      const res = await fetch(`${app.baseUrl}/api/admin/materials/${path}`, {
        headers: { cookie: optician },
      });
      expect(res.status).toBe(403);
      await res.body?.cancel();
      const out = await fetch(`${app.baseUrl}/api/admin/materials/${path}`);
      expect(out.status).toBe(401);
      await out.body?.cancel();
    }
    for (const step of ["import/preview", "import"] as const) {
      const res = await upload("materials", step, "name,price\nA,1", { cookie: optician });
      expect(res.status).toBe(403);
    }
    const preview = await upload("materials", "import/preview", "name,price\nA,1", {
      cookie: admin,
    });
    expect(preview.status).toBe(200);
  });
});
