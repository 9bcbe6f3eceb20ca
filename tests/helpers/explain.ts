import { type Compilable, CompiledQuery } from "kysely";
import type { DB } from "../../src/db/database.ts";

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Plans?: PlanNode[];
}

/** EXPLAIN of a built query on either engine: the indexes its plan uses and the tables it scans. */
export async function planOf(db: DB, query: Compilable) {
  const compiled = query.compile();
  const { rows } = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]),
  );
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
    seqScans: nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]),
  };
}
