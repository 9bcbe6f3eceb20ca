/**
 * Which tables a statement may write, and a counter of writes per table.
 *
 * Reads that are cached across requests (src/db/read_through.ts) are stamped
 * with the counters of the tables they read; a write to any of them changes
 * the stamp and so drops the cached value. The counters move when a
 * connection that wrote is handed back to the pool, that is after its
 * statement or transaction committed (or rolled back): a read that starts
 * later sees the write, and one that started earlier carries an older stamp.
 */

/** `"all"`: a statement whose target is not known (DDL, scripts, data-modifying WITH). */
export type Written = readonly string[] | "all";

const READ = /^\s*(?:select|values|show|explain)\b/i;
const WITH = /^\s*with\b/i;
const MODIFIES = /\b(?:insert|update|delete|merge|truncate)\b/i;
const TARGET =
  /^\s*(?:insert\s+into|update|delete\s+from)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/i;
/** Statements that change no table: transaction control, locks, settings of the session. */
const NO_WRITE =
  /^\s*(?:begin|commit|rollback|savepoint|release|set|reset|lock|listen|unlisten)\b/i;

/**
 * The tables a statement may write: none for a read, its target for a plain
 * INSERT, UPDATE or DELETE, and "all" when that cannot be told from its text.
 * Over-reporting only costs a cache miss; under-reporting would serve stale
 * data, so anything unrecognised is "all".
 */
export function writtenTables(sqlText: string): Written {
  if (READ.test(sqlText) || NO_WRITE.test(sqlText)) return [];
  if (WITH.test(sqlText)) return MODIFIES.test(sqlText) ? "all" : [];
  const target = TARGET.exec(sqlText);
  return target ? [target[1].toLowerCase()] : "all";
}

/** Write counters of one database, per table, plus one for writes to any table. */
export class TableWrites {
  #any = 0;
  #byTable = new Map<string, number>();
  #keeping = true;

  /** False while writes of other processes cannot be heard (see pause). */
  get keeping(): boolean {
    return this.#keeping;
  }

  /** Writes of other processes cannot be heard: reads are not kept until resume. */
  pause() {
    this.#keeping = false;
    this.#any++;
  }

  /**
   * Writes are heard again. What was written meanwhile went unheard, so every
   * stamp moves: nothing read before is served again.
   */
  resume() {
    this.#keeping = true;
    this.#any++;
  }

  record(written: Written) {
    if (written === "all") {
      this.#any++;
      return;
    }
    for (const table of written) this.#byTable.set(table, (this.#byTable.get(table) ?? 0) + 1);
  }

  /** A number that grows whenever one of `tables` (or an unknown target) is written. */
  stamp(tables: readonly string[]): number {
    let n = this.#any;
    for (const table of tables) n += this.#byTable.get(table) ?? 0;
    return n;
  }
}

/** Collects what one pooled connection wrote until it is handed back. */
export class ConnectionWrites {
  #tables = new Set<string>();
  #all = false;

  note(sqlText: string) {
    const written = writtenTables(sqlText);
    if (written === "all") this.#all = true;
    else for (const t of written) this.#tables.add(t);
  }

  /** Records the writes in `writes` and starts afresh. */
  flushTo(writes: TableWrites) {
    if (this.#all) writes.record("all");
    else if (this.#tables.size) writes.record([...this.#tables]);
    this.#all = false;
    this.#tables.clear();
  }
}
