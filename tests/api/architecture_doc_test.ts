// One engine: plain reads and writes, the same statements on either engine; they run on the
// server, and PGlite runs the files where the engines differ (docs/development.md).
// docs/architecture.md draws the data model as a Mermaid erDiagram; this holds
// it to the schema the migrations build, on the engine of the run: every table
// is an entity, every column listed exists with that type and those keys,
// every foreign key is a relationship line with the multiplicities its
// constraints give, and no line draws a relation the database does not have.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { fileURLToPath } from "node:url";
import { type MigratedTestDatabase, openMigratedTestDatabase } from "../helpers/database.ts";
import {
  diagramProblems,
  type ErDiagram,
  erDiagramOf,
  readSchema,
  type Schema,
} from "../helpers/er_diagram.ts";

const DOC = fileURLToPath(new URL("../../docs/architecture.md", import.meta.url));

/** Kysely's migrator keeps its own bookkeeping in these; they are not the app's data. */
const MIGRATOR_TABLES = ["kysely_migration", "kysely_migration_lock"];

let testDb: MigratedTestDatabase;
let schema: Schema;
let diagram: ErDiagram;

before(async () => {
  testDb = await openMigratedTestDatabase();
  schema = await readSchema(testDb.handle.db);
  for (const table of MIGRATOR_TABLES) schema.tables.delete(table);
  diagram = erDiagramOf(await Deno.readTextFile(DOC));
});
after(() => testDb.close());

describe("the data model in docs/architecture.md", () => {
  it("is true to the migrated database", () => {
    // The figures, for the log: what was compared.
    const columns = [...diagram.entities.values()].reduce((n, e) => n + e.attributes.length, 0);
    console.log(
      `${schema.tables.size} tables, ${columns} columns listed, ` +
        `${schema.foreignKeys.length} foreign keys, ${diagram.relations.length} relationship lines`,
    );
    // A schema read wrong (an empty one) would agree with an empty diagram.
    expect(schema.tables.size).toBeGreaterThan(30);
    expect(schema.foreignKeys.length).toBeGreaterThan(30);
    expect(diagramProblems(diagram, schema)).toEqual([]);
  });

  it("names each way a diagram can be wrong", () => {
    const notNull = (type: string) => ({ type, nullable: false });
    const table = (columns: Record<string, string>, unique: string[][] = []) => ({
      columns: new Map(Object.entries(columns).map(([name, type]) => [name, notNull(type)])),
      primaryKey: ["id"],
      unique,
    });
    const small: Schema = {
      tables: new Map([
        ["clients", table({ id: "uuid", last_name: "text" })],
        [
          "quotes",
          table({ id: "uuid", client_id: "uuid", quote_number: "text" }, [["quote_number"]]),
        ],
        ["labs", table({ id: "uuid" })],
      ]),
      foreignKeys: [{ table: "quotes", columns: ["client_id"], references: "clients" }],
    };
    const right = [
      "```mermaid",
      "erDiagram",
      "    clients ||--o{ quotes : client_id",
      "    clients {",
      "        uuid id PK",
      '        text last_name "as typed"',
      "    }",
      "    quotes {",
      "        uuid id PK",
      "        text quote_number UK",
      "    }",
      "    labs {",
      "        uuid id PK",
      "    }",
      "```",
    ].join("\n");
    expect(diagramProblems(erDiagramOf(right), small)).toEqual([]);
    // The parent may stand on either side; `..` is drawn dashed, and means the same here.
    expect(diagramProblems(
      erDiagramOf(right.replace("clients ||--o{ quotes", "quotes }o..|| clients")),
      small,
    )).toEqual([]);

    const wrong = right
      .replace("text last_name", "text surname")
      .replace("uuid id PK\n        text quote_number UK", "int4 id PK\n        text quote_number")
      .replace("clients ||--o{ quotes : client_id", "clients |o--o{ quotes : client_id")
      .replace("    labs {", "    labs ||--o{ clients : lab_id\n    prices\n    labs {");
    expect(diagramProblems(erDiagramOf(wrong), small)).toEqual([
      "clients.surname (line 6) is not a column of table clients",
      "quotes.id (line 9) is written as int4, but the column is uuid",
      'quotes.quote_number (line 10) is marked "", but its keys are "UK"',
      "entity prices (line 13) is not a table of the database",
      "line 3 draws quotes(client_id) -> clients as zero or more to zero or one; the constraints " +
      'say zero or more to exactly one: "clients ||--o{ quotes : client_id"',
      'line 12 "labs ||--o{ clients : lab_id" is not a foreign key of the database',
    ]);

    const missing = right.replace("    clients ||--o{ quotes : client_id\n", "")
      .replace("        uuid id PK\n        text last_name", "        text last_name")
      .replace("    labs {\n        uuid id PK\n    }\n", "");
    expect(diagramProblems(erDiagramOf(missing), small)).toEqual([
      "table labs is missing from the diagram",
      "clients.id, in its primary key, is not listed (PK)",
      'foreign key quotes(client_id) -> clients is missing from the diagram: "clients ||--o{ quotes : client_id"',
    ]);

    expect(() => erDiagramOf(right.replace("text last_name", "text last name here")))
      .toThrow('line 6: cannot read attribute "text last name here');
    expect(() => erDiagramOf("# no diagram")).toThrow("no ```mermaid block");
  });
});
