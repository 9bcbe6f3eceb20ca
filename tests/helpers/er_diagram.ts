// A Mermaid erDiagram read back from Markdown, the real schema read from a
// database, and what differs between the two. docs/architecture.md's data
// model is held to the migrated database by tests/api/architecture_doc_test.ts.
import { sql } from "kysely";
import type { DB } from "../../src/db/database.ts";

/** How many rows of one side may stand against one row of the other. */
export type Multiplicity = "zero or one" | "exactly one" | "zero or more" | "one or more";

export interface DiagramAttribute {
  type: string;
  name: string;
  keys: string[];
  line: number;
}

export interface DiagramEntity {
  name: string;
  attributes: DiagramAttribute[];
  line: number;
}

/** `left L--R right : label`: L is how many `left` rows per `right` row, R the reverse. */
export interface DiagramRelation {
  left: string;
  leftSide: Multiplicity;
  right: string;
  rightSide: Multiplicity;
  label: string;
  line: number;
  text: string;
}

export interface ErDiagram {
  entities: Map<string, DiagramEntity>;
  relations: DiagramRelation[];
}

const LEFT: Record<string, Multiplicity> = {
  "|o": "zero or one",
  "||": "exactly one",
  "}o": "zero or more",
  "}|": "one or more",
};
const RIGHT: Record<string, Multiplicity> = {
  "o|": "zero or one",
  "||": "exactly one",
  "o{": "zero or more",
  "|{": "one or more",
};
const MARK_LEFT = Object.fromEntries(Object.entries(LEFT).map(([k, v]) => [v, k]));
const MARK_RIGHT = Object.fromEntries(Object.entries(RIGHT).map(([k, v]) => [v, k]));

const NAME = String.raw`[A-Za-z_][\w-]*`;
const ENTITY_OPEN = new RegExp(String.raw`^(${NAME})\s*\{$`);
const ENTITY_ALONE = new RegExp(String.raw`^(${NAME})$`);
const ATTRIBUTE = new RegExp(
  String.raw`^(${NAME})\s+(${NAME})((?:\s+(?:PK|FK|UK)(?:\s*,\s*(?:PK|FK|UK))*)?)(?:\s+"[^"]*")?$`,
);
const RELATION = new RegExp(
  String
    .raw`^(${NAME})\s+(\|o|\|\||\}o|\}\|)(?:--|\.\.)(o\||\|\||o\{|\|\{)\s+(${NAME})\s*:\s*(?:"([^"]*)"|(\S+))$`,
);

/**
 * The first ```mermaid block of `markdown` that is an erDiagram: its entities
 * (with the attributes listed) and its relationship lines. Line numbers are
 * the Markdown file's. A line it cannot read is an error naming it, so the
 * diagram cannot hold something the comparison silently skips.
 */
export function erDiagramOf(markdown: string): ErDiagram {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l, i) =>
    l.trim() === "```mermaid" && lines[i + 1]?.trim() === "erDiagram"
  );
  if (start < 0) throw new Error("no ```mermaid block starting with erDiagram");
  const entities = new Map<string, DiagramEntity>();
  const relations: DiagramRelation[] = [];
  const entity = (name: string, line: number) => {
    if (!entities.has(name)) entities.set(name, { name, attributes: [], line });
    return entities.get(name)!;
  };
  let open: DiagramEntity | undefined;
  for (let i = start + 2; i < lines.length; i++) {
    const text = lines[i].trim();
    const line = i + 1;
    if (text === "```") {
      if (open) throw new Error(`line ${open.line}: entity ${open.name} is never closed`);
      return { entities, relations };
    }
    if (text === "" || text.startsWith("%%")) continue;
    if (open) {
      if (text === "}") {
        open = undefined;
        continue;
      }
      const m = ATTRIBUTE.exec(text);
      if (!m) throw new Error(`line ${line}: cannot read attribute "${text}" of ${open.name}`);
      const keys = m[3].split(",").map((k) => k.trim()).filter(Boolean).sort();
      open.attributes.push({ type: m[1], name: m[2], keys, line });
      continue;
    }
    let m = ENTITY_OPEN.exec(text);
    if (m) {
      open = entity(m[1], line);
      continue;
    }
    m = RELATION.exec(text);
    if (m) {
      entity(m[1], line);
      entity(m[4], line);
      relations.push({
        left: m[1],
        leftSide: LEFT[m[2]],
        right: m[4],
        rightSide: RIGHT[m[3]],
        label: m[5] ?? m[6],
        line,
        text,
      });
      continue;
    }
    m = ENTITY_ALONE.exec(text);
    if (m) {
      entity(m[1], line);
      continue;
    }
    throw new Error(`line ${line}: cannot read "${text}"`);
  }
  throw new Error("the erDiagram block is never closed");
}

export interface SchemaColumn {
  /** PostgreSQL's name of the type (`information_schema.columns.udt_name`): int4, timestamptz… */
  type: string;
  nullable: boolean;
}

export interface SchemaTable {
  columns: Map<string, SchemaColumn>;
  primaryKey: string[];
  /** Unique constraints and indexes on plain columns (no expression, no WHERE), besides the key. */
  unique: string[][];
}

export interface ForeignKey {
  table: string;
  columns: string[];
  references: string;
}

export interface Schema {
  tables: Map<string, SchemaTable>;
  foreignKeys: ForeignKey[];
}

/** The tables, columns, keys and foreign keys of the database's current schema. */
export async function readSchema(db: DB): Promise<Schema> {
  const columns = await sql<{ tbl: string; col: string; udt: string; nullable: string }>`
    select c.table_name as tbl, c.column_name as col, c.udt_name as udt, c.is_nullable as nullable
    from information_schema.columns c
    join information_schema.tables t
      on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db);
  const tables = new Map<string, SchemaTable>();
  for (const { tbl, col, udt, nullable } of columns.rows) {
    if (!tables.has(tbl)) tables.set(tbl, { columns: new Map(), primaryKey: [], unique: [] });
    tables.get(tbl)!.columns.set(col, { type: udt, nullable: nullable === "YES" });
  }
  const indexes = await sql<{ tbl: string; cols: string; primary: boolean }>`
    select c.relname as tbl, i.indisprimary as primary,
      array_to_string(array(
        select a.attname from unnest(i.indkey) with ordinality k(num, pos)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.num
        order by k.pos), ',') as cols
    from pg_index i
    join pg_class c on c.oid = i.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and i.indisunique
      and i.indexprs is null and i.indpred is null`.execute(db);
  for (const { tbl, cols, primary } of indexes.rows) {
    const table = tables.get(tbl);
    if (!table) continue;
    if (primary) table.primaryKey = cols.split(",");
    else table.unique.push(cols.split(","));
  }
  const foreignKeys = await sql<{ tbl: string; cols: string; target: string }>`
    select c.relname as tbl, t.relname as target,
      array_to_string(array(
        select a.attname from unnest(k.conkey) with ordinality u(num, pos)
        join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.num
        order by u.pos), ',') as cols
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid
    join pg_class t on t.oid = k.confrelid
    join pg_namespace n on n.oid = k.connamespace
    where n.nspname = current_schema() and k.contype = 'f'
    order by 1, 3, 2`.execute(db);
  return {
    tables,
    foreignKeys: foreignKeys.rows.map(({ tbl, cols, target }) => ({
      table: tbl,
      columns: cols.split(","),
      references: target,
    })),
  };
}

const sameSet = (a: string[], b: string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * What a foreign key's constraints say, as the diagram should draw it: one
 * referenced row when every column is NOT NULL, else zero or one; at most one
 * referencing row when the columns are unique, else any number.
 */
export function multiplicities(schema: Schema, fk: ForeignKey) {
  const table = schema.tables.get(fk.table)!;
  const notNull = fk.columns.every((c) => !table.columns.get(c)?.nullable);
  const unique = [table.primaryKey, ...table.unique].some((u) =>
    u.length > 0 && u.every((c) => fk.columns.includes(c))
  );
  return {
    referenced: (notNull ? "exactly one" : "zero or one") as Multiplicity,
    referencing: (unique ? "zero or one" : "zero or more") as Multiplicity,
  };
}

/** The relationship line that draws `fk`, referenced table on the left. */
export function relationLine(schema: Schema, fk: ForeignKey): string {
  const m = multiplicities(schema, fk);
  return `${fk.references} ${MARK_LEFT[m.referenced]}--${MARK_RIGHT[m.referencing]} ${fk.table} : ${
    fk.columns.join(",")
  }`;
}

/** The keys a column carries: PK (in the primary key), FK (in a foreign key), UK (unique alone). */
function keysOf(schema: Schema, table: string, column: string): string[] {
  const t = schema.tables.get(table)!;
  const keys: string[] = [];
  if (t.primaryKey.includes(column)) keys.push("PK");
  if (schema.foreignKeys.some((fk) => fk.table === table && fk.columns.includes(column))) {
    keys.push("FK");
  }
  if (t.unique.some((u) => sameSet(u, [column]))) keys.push("UK");
  return keys.sort();
}

/**
 * Every way `diagram` is not true to `schema`, one sentence each naming the
 * table, column or relation (an empty list: the diagram is true).
 */
export function diagramProblems(diagram: ErDiagram, schema: Schema): string[] {
  const problems: string[] = [];
  for (const name of schema.tables.keys()) {
    if (!diagram.entities.has(name)) {
      problems.push(`table ${name} is missing from the diagram`);
    }
  }
  for (const entity of diagram.entities.values()) {
    const table = schema.tables.get(entity.name);
    if (!table) {
      problems.push(`entity ${entity.name} (line ${entity.line}) is not a table of the database`);
      continue;
    }
    const listed = entity.attributes.map((a) => a.name);
    for (const column of table.primaryKey) {
      if (!listed.includes(column)) {
        problems.push(`${entity.name}.${column}, in its primary key, is not listed (PK)`);
      }
    }
    for (const attr of entity.attributes) {
      const where = `${entity.name}.${attr.name} (line ${attr.line})`;
      const column = table.columns.get(attr.name);
      if (!column) {
        problems.push(`${where} is not a column of table ${entity.name}`);
        continue;
      }
      if (attr.type !== column.type) {
        problems.push(`${where} is written as ${attr.type}, but the column is ${column.type}`);
      }
      const keys = keysOf(schema, entity.name, attr.name);
      if (!sameSet(attr.keys, keys)) {
        problems.push(
          `${where} is marked "${attr.keys.join(", ")}", but its keys are "${keys.join(", ")}"`,
        );
      }
    }
  }
  const drawn = new Set<DiagramRelation>();
  for (const fk of schema.foreignKeys) {
    const label = fk.columns.join(",");
    const relation = diagram.relations.find((r) =>
      !drawn.has(r) && r.label === label &&
      ((r.left === fk.references && r.right === fk.table) ||
        (r.left === fk.table && r.right === fk.references))
    );
    const expected = relationLine(schema, fk);
    if (!relation) {
      problems.push(
        `foreign key ${fk.table}(${label}) -> ${fk.references} is missing from the diagram: ` +
          `"${expected}"`,
      );
      continue;
    }
    drawn.add(relation);
    const referencedOnLeft = relation.left === fk.references;
    const referenced = referencedOnLeft ? relation.leftSide : relation.rightSide;
    const referencing = referencedOnLeft ? relation.rightSide : relation.leftSide;
    const m = multiplicities(schema, fk);
    if (referenced !== m.referenced || referencing !== m.referencing) {
      problems.push(
        `line ${relation.line} draws ${fk.table}(${label}) -> ${fk.references} as ` +
          `${referencing} to ${referenced}; the constraints say ${m.referencing} to ` +
          `${m.referenced}: "${expected}"`,
      );
    }
  }
  for (const relation of diagram.relations) {
    if (!drawn.has(relation)) {
      problems.push(
        `line ${relation.line} "${relation.text}" is not a foreign key of the database`,
      );
    }
  }
  return problems;
}
