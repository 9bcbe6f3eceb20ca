// The store's opening days and hours in its time zone (Settings, migration
// 0022) and the dates it is shut (0028): promised dates count its business days.
import type { DB } from "../db/database.ts";
import { localDate, parseClosedDates, parseOpeningDays } from "./rules.ts";
import { settingsOfStore } from "../settings/settings.ts";

export interface StoreHours {
  openingDays: number[];
  /** Sorted YYYY-MM-DD: holidays and other days shut on an opening day. */
  closedDates: string[];
  openingTime: string;
  closingTime: string;
  timeZone: string;
}

/**
 * A store's hours, each part its own where it sets one (migration 0036), else
 * the chain's (Settings); null: the chain's.
 */
export async function findStoreHours(db: DB, storeId: string | null): Promise<StoreHours> {
  const s = await settingsOfStore(db, storeId)
    .select((eb) => [
      eb.fn.coalesce("stores.openingDays", "settings.openingDays").as("openingDays"),
      eb.fn.coalesce("stores.closedDates", "settings.closedDates").as("closedDates"),
      eb.fn.coalesce("stores.openingTime", "settings.openingTime").as("openingTime"),
      eb.fn.coalesce("stores.closingTime", "settings.closingTime").as("closingTime"),
      eb.fn.coalesce("stores.timeZone", "settings.timeZone").as("timeZone"),
    ]).executeTakeFirstOrThrow();
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
