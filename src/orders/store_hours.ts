// The store's opening days and hours in its time zone (Settings, migration
// 0022) and the dates it is shut (0028): promised dates count its business days.
import type { DB } from "../db/database.ts";
import { localDate, parseClosedDates, parseOpeningDays } from "./rules.ts";

export interface StoreHours {
  openingDays: number[];
  /** Sorted YYYY-MM-DD: holidays and other days shut on an opening day. */
  closedDates: string[];
  openingTime: string;
  closingTime: string;
  timeZone: string;
}

export async function findStoreHours(db: DB): Promise<StoreHours> {
  const s = await db.selectFrom("settings")
    .select(["openingDays", "closedDates", "openingTime", "closingTime", "timeZone"])
    .where("id", "=", 1).executeTakeFirstOrThrow();
  return {
    ...s,
    openingDays: parseOpeningDays(s.openingDays),
    closedDates: parseClosedDates(s.closedDates),
  };
}

/** Today in the store's time zone (a zone the runtime does not know reads as UTC). */
export function storeToday(hours: Pick<StoreHours, "timeZone">, now: Date): string {
  try {
    return localDate(now, hours.timeZone);
  } catch {
    return localDate(now, "UTC");
  }
}
