import { type Compilable, CompiledQuery } from "kysely";
import type { DB } from "../../src/db/database.ts";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/**
 * EXPLAIN of a built query on either engine: the indexes its plan uses (and
 * those it reads alone, without the table), and the tables it scans.
 */
export async function planOf(db: DB, query: Compilable) {
  const compiled = query.compile();
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
  );
  return planFromRows(rows);
}

/** The indexes and sequential scans of an EXPLAIN (FORMAT JSON) answer. */
function planFromRows(rows: Record<string, unknown>[]) {
  // postgres.js parses the JSON column; PGlite may hand back the text.
  const raw = Object.values(rows[0])[0];
  const json = typeof raw === "string" ? JSON.parse(raw) : raw;
  const nodes: PlanNode[] = [];
  const walk = (node: PlanNode) => {
    nodes.push(node);
    node.Plans?.forEach(walk);
  };
  walk((json as { Plan: PlanNode }[])[0].Plan);
  return {
    indexes: new Set(nodes.map((n) => n["Index Name"]).filter(Boolean)),
    indexOnly: new Set(
      nodes.filter((n) => n["Node Type"] === "Index Only Scan").map((n) => n["Index Name"]),
    ),
    seqScans: nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
  };
}

let prepared = 0;

/** A parameter as an SQL literal, for EXECUTE. */
function literal(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return `'${value.toISOString()}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

/**
 * The plan PostgreSQL reuses for every value of a built query's parameters
 * (its generic plan), on either engine: the query is prepared and explained
 * with plan_cache_mode = force_generic_plan, as genericPlans(db) runs it.
 */
export async function genericPlanOf(db: DB, query: Compilable) {
  const compiled = query.compile();
  const name = `generic_plan_${++prepared}`;
  return await db.transaction().execute(async (trx) => {
    await trx.executeQuery(CompiledQuery.raw("SET LOCAL plan_cache_mode = force_generic_plan"));
    await trx.executeQuery(CompiledQuery.raw(`PREPARE ${name} AS ${compiled.sql}`));
    const args = compiled.parameters.map(literal).join(", ");
    const { rows } = await trx.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`EXPLAIN (FORMAT JSON) EXECUTE ${name}${args ? `(${args})` : ""}`),
    );
    await trx.executeQuery(CompiledQuery.raw(`DEALLOCATE ${name}`));
    return planFromRows(rows);
  });
}
