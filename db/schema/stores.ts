// The chain's stores (migration 0036). A store's nullable columns override the
// chain's settings (the settings row): null is "as the chain".
import type { ColumnType, Generated } from "kysely";
import type { CreatedAt, Timestamp } from "./columns.ts";

export interface StoresTable {
  id: Generated<string>;
  /** Short and unique, upper-case letters and digits: it prefixes the store's numbers. */
  code: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  website: string | null;
  logoUrl: string | null;
  logoPrintUrl: string | null;
  timeZone: string | null;
  /** As settings.opening_days: "1,2,3,4,5,6" (0 = Sunday). */
  openingDays: string | null;
  openingTime: string | null;
  closingTime: string | null;
  /** As settings.closed_dates: sorted YYYY-MM-DD, comma-separated. */
  closedDates: string | null;
  readyEmailSubject: string | null;
  readyEmailBody: string | null;
  active: ColumnType<boolean, boolean | undefined, boolean>;
  createdAt: CreatedAt;
  updatedAt: Timestamp;
}

/** The labs a store uses (migration 0039); a store with none uses every active lab. */
export interface StoreLabsTable {
  storeId: string;
  labId: string;
}

/** The stores a user works in (an OWNER works in every store whatever these say). */
export interface UserStoresTable {
  userId: string;
  storeId: string;
}
