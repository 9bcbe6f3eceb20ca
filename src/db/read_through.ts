import type { DB } from "./database.ts";
import { tableWritesOf } from "./database.ts";

/**
 * Reads kept between requests: a value is served again while none of the
 * tables it was read from has been written (src/db/table_writes.ts) and it is
 * younger than `maxAgeMs`. The age limit is for what the tables cannot tell:
 * the passing of time (a quote expires at a moment, "today" ends) and, as a
 * safety net, a notification from another process that never came.
 *
 * Concurrent misses share one load. A failed load is not kept.
 */
export interface ReadThrough<T> {
  /** Names the entry: one per distinct read (e.g. per filter). */
  key: string;
  /** The tables the read depends on, as PostgreSQL names them. */
  tables: readonly string[];
  maxAgeMs: number;
  load: () => Promise<T>;
}

interface Entry {
  stamp: number;
  at: number;
  value: Promise<unknown>;
}

const entriesOf = new WeakMap<DB, Map<string, Entry>>();
/**
 * Entries kept per database at most (one per quote opened, a few others);
 * past it the oldest goes. Keys are made by code from checked ids.
 */
const MAX_KEYS = 256;

export function readThrough<T>(db: DB, read: ReadThrough<T>): Promise<T> {
  const writes = tableWritesOf(db);
  // A transaction or a wrapped handle has no counters, and a server whose
  // writes cannot be heard has nothing to drop kept reads by: read afresh.
  if (!writes?.keeping) return read.load();
  let entries = entriesOf.get(db);
  if (!entries) entriesOf.set(db, entries = new Map());
  const stamp = writes.stamp(read.tables);
  const now = performance.now();
  const kept = entries.get(read.key);
  if (kept && kept.stamp === stamp && now - kept.at < read.maxAgeMs) {
    return kept.value as Promise<T>;
  }
  const value = read.load();
  const entry: Entry = { stamp, at: now, value };
  entries.delete(read.key);
  if (entries.size >= MAX_KEYS) entries.delete(entries.keys().next().value!);
  entries.set(read.key, entry);
  value.catch(() => {
    if (entries.get(read.key) === entry) entries.delete(read.key);
  });
  return value;
}
