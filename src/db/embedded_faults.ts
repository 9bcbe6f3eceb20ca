// What the embedded engine does when its disk fills up or PostgreSQL gives up,
// as seen with PGlite 0.5.16 (tests/faults/embedded_faults_test.ts):
//
// - A table or index that needs a new page on a full disk: the statement
//   fails with ERROR 53100 (disk_full) `could not extend file "base/5/16391":
//   No space left on device`, hint "Check free disk space.". The instance
//   lives on: reads work, and writes work again once there is space.
// - The write-ahead log that needs its next 16 MB segment on a full disk:
//   PANIC 53100 `could not write to file "pg_wal/xlogtemp.NN": No space left
//   on device`. PostgreSQL then calls abort(): the WASM instance is dead, and
//   PGlite's next statement spins forever inside its synchronous loop (100%
//   CPU, the event loop blocked: no HTTP answer, no timer, no SIGTERM).
// - A start on a full disk after such a stop replays the log, then fails with
//   FATAL `could not write to file "pg_wal/xlogtemp.NN": No space left on
//   device` written to PostgreSQL's stderr, and PGlite throws only "PGlite
//   failed to initialize properly".
// - Once there is space, the next start recovers every committed write (the
//   log is replayed), as it does after a `kill -9`.
//
// Hence: PostgreSQL's stderr is kept (its last lines say why), abort() marks
// the instance stopped, and a stopped instance is never entered again: every
// statement is refused at once with EmbeddedDatabaseStopped, and the handle's
// `stopped` promise tells the app to say so and exit.
import { PGlite, type PGliteOptions, type Transaction } from "@electric-sql/pglite";

/** PostgreSQL's SQLSTATE disk_full. */
export const DISK_FULL = "53100";

const NO_SPACE = /No space left on device|\bENOSPC\b/;

/**
 * PostgreSQL's stderr line of a FATAL or PANIC, `2026-12-06 23:43:32.300 UTC
 * [42] PANIC:  message`: its message. Anchored: a value quoted in a DETAIL
 * line continues on lines that start with a tab, so it cannot pass for one.
 */
const FATAL_LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[\d+\] (?:FATAL|PANIC):\s+(.*)$/;

/**
 * The embedded database cannot go on (`phase: "run"`) or could not start
 * (`phase: "start"`): PostgreSQL stopped with a PANIC or a FATAL. Its message
 * is the one line a person needs; `diskFull` when the cause is a full disk.
 */
export class EmbeddedDatabaseStopped extends Error {
  override name = "EmbeddedDatabaseStopped";
  constructor(
    readonly phase: "start" | "run",
    readonly diskFull: boolean,
    /** What PostgreSQL said (its FATAL or PANIC line), or what PGlite threw. */
    readonly detail: string,
    dataDir: string,
  ) {
    super(stoppedMessage(phase, diskFull, detail, dataDir));
  }
}

function stoppedMessage(
  phase: "start" | "run",
  diskFull: boolean,
  detail: string,
  dataDir: string,
): string {
  const what = phase === "start"
    ? `The embedded database in ${dataDir} cannot start`
    : `The embedded database in ${dataDir} stopped`;
  if (diskFull) {
    return `${what}: the disk of DATA_DIR is full (${detail}). Free space there and start ` +
      "Lensdesk again: every change it saved is kept.";
  }
  return phase === "start"
    ? `${what}: ${detail}`
    : `${what}: ${detail}. Start Lensdesk again: it recovers every change it saved.`;
}

/** The error and its causes (Kysely and the migrator wrap what failed under them). */
function chainOf(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && out.length < 10;) {
    out.push(e);
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/**
 * True when a write failed because the disk is full: PGlite's (and a
 * server's) SQLSTATE 53100 at ERROR or PANIC, a stopped embedded database
 * whose disk is full, or a file system error ENOSPC. The write was not saved;
 * the answer should say the disk is full (507) rather than "try again".
 */
export function isDiskFull(err: unknown): boolean {
  return chainOf(err).some((e) => {
    if (e instanceof EmbeddedDatabaseStopped) return e.diskFull;
    if (typeof e !== "object") return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    return code === DISK_FULL || code === "ENOSPC" ||
      (typeof message === "string" && NO_SPACE.test(message));
  });
}

/** True when the embedded database stopped: the process should say why and exit. */
export function isEmbeddedStopped(err: unknown): err is EmbeddedDatabaseStopped {
  return err instanceof EmbeddedDatabaseStopped;
}

/** How many of PostgreSQL's last stderr lines are kept. */
const KEPT_LINES = 50;

/**
 * PGlite with a guard: PostgreSQL's stderr kept, abort() noticed, and a dead
 * instance never entered again (entering it hangs the process).
 */
export class GuardedPGlite extends PGlite {
  readonly #watch: StopWatch;

  constructor(dataDir: string, options: PGliteOptions, watch: StopWatch) {
    super(dataDir, { ...options, onStderr: watch.onStderr });
    this.#watch = watch;
  }

  /** After waitReady: PostgreSQL's abort() (a PANIC) marks the instance stopped. */
  watchAborts(): void {
    const mod = this.mod as { onAbort?: (what: unknown) => void } | undefined;
    if (mod) mod.onAbort = (what) => this.#watch.aborted(what);
    this.#watch.started();
  }

  // Every statement, in or out of a transaction, and pg_dump's protocol
  // messages come through here.
  override execProtocolRawSync(message: Uint8Array): Uint8Array {
    if (this.#watch.failure) throw this.#watch.failure;
    return super.execProtocolRawSync(message);
  }

  /**
   * Kysely's PGlite driver begins a transaction by waiting inside this
   * callback for its commit or rollback: a BEGIN that fails never calls it,
   * and the driver would wait forever (the request with it). The callback is
   * then given a transaction whose every statement fails with BEGIN's error,
   * so the driver rolls back and its caller gets that error.
   */
  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    let entered = false;
    try {
      return await super.transaction((tx) => {
        entered = true;
        return callback(tx);
      });
    } catch (err) {
      if (entered) throw err;
      await callback(refusingTransaction(err)).catch(() => {});
      throw err;
    }
  }

  override get closed(): boolean {
    return super.closed || this.#watch.failure !== undefined;
  }

  /** A stopped instance is not closed: its shutdown would enter it. */
  override async close(): Promise<void> {
    if (this.#watch.failure) return;
    await super.close();
  }
}

function refusingTransaction(err: unknown): Transaction {
  const refuse = () => Promise.reject(err);
  return {
    query: refuse,
    sql: refuse,
    exec: refuse,
    rollback: () => Promise.resolve(),
    listen: refuse,
    closed: true,
  };
}

/** PostgreSQL's stderr and its aborts, for one embedded database. */
export class StopWatch {
  #lines: string[] = [];
  #running = false;
  #failure: EmbeddedDatabaseStopped | undefined;
  readonly #stopped = Promise.withResolvers<EmbeddedDatabaseStopped>();

  constructor(readonly dataDir: string) {}

  /** Set once the database stopped: what it said. */
  get failure(): EmbeddedDatabaseStopped | undefined {
    return this.#failure;
  }

  /** Resolves when a running database stops (never when it is closed). */
  get stopped(): Promise<EmbeddedDatabaseStopped> {
    return this.#stopped.promise;
  }

  /** PGlite's onStderr: each line PostgreSQL writes to its log. */
  readonly onStderr = (line: string): boolean => {
    this.#lines.push(line);
    if (this.#lines.length > KEPT_LINES) this.#lines.shift();
    // A FATAL ends PostgreSQL's only session: nothing after it can be trusted.
    const fatal = FATAL_LINE.exec(line);
    if (fatal && this.#running) this.#stop(fatal[1].trim());
    return false;
  };

  started(): void {
    this.#running = true;
  }

  /** Emscripten's abort(): PostgreSQL's PANIC (its line is already on stderr). */
  aborted(what: unknown): void {
    if (!this.#running || this.#failure) return;
    const said = this.#lastFatal();
    this.#stop(said ?? `PostgreSQL aborted${what ? ` (${String(what)})` : ""}`);
  }

  #stop(detail: string): void {
    if (this.#failure) return;
    this.#failure = new EmbeddedDatabaseStopped("run", NO_SPACE.test(detail), detail, this.dataDir);
    this.#stopped.resolve(this.#failure);
  }

  #lastFatal(): string | undefined {
    for (let i = this.#lines.length - 1; i >= 0; i--) {
      const fatal = FATAL_LINE.exec(this.#lines[i]);
      if (fatal) return fatal[1].trim();
    }
    return undefined;
  }

  /**
   * What a start that failed says: PostgreSQL's FATAL or PANIC line when it
   * wrote one (PGlite's own error says only "failed to initialize"), else the
   * error itself.
   */
  startFailure(err: unknown): Error {
    const said = this.#lastFatal();
    if (!said) return err instanceof Error ? err : new Error(String(err));
    return new EmbeddedDatabaseStopped("start", NO_SPACE.test(said), said, this.dataDir);
  }
}
