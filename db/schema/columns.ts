// The column types the tables share: timestamps, a creation time written once, and
// NUMERIC, which comes back as a string so money never passes through a float.
import type { ColumnType } from "kysely";

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type Numeric = ColumnType<string, string | number | undefined, string | number>;
