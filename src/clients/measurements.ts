// A client's measurements as read back: its own module, below both the
// clients domain and the quotes that copy measurements from an earlier quote
// (src/quotes/carry_over.ts), so neither has to import the other.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";

/** trim_scale: 62.0 reads "62", 62.5 reads "62.5", 0 reads "0" on both engines. */
const pdText = (col: "pdBinocular" | "pdNear") =>
  sql<string>`trim_scale(${sql.ref(col)})::text`.as(col);

export function findMeasurements(db: DB, clientId: string) {
  return db.selectFrom("clientMeasurements")
    .select([pdText("pdBinocular"), pdText("pdNear"), "measurementsComplete", "extras"])
    .where("clientId", "=", clientId).executeTakeFirst();
}
