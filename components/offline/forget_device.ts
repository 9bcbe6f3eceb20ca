/**
 * device_store.ts's database and store, named again here rather than imported:
 * this module shares no code with the client's pages, whose script budget
 * (tests/unit/page_js_budget_test.ts) has no room for the chunk a shared
 * constant makes. tests/e2e/device_forgets_test.ts fails if they part.
 */
export const DEVICE_DB = "lensdesk-device";
export const KEPT_STORE = "kept";

export { FORGET_COOKIE } from "../../src/http/forget_cookie.ts";

/**
 * What sign-out, the hand-over to a client and the end of a kiosk session
 * remove from this browser (docs/security.md, "What the device keeps, and
 * when it forgets"):
 *
 * - IndexedDB: every draft the kept screens wrote (a client's quote as the
 *   tablet showed it, a half-typed intake), and any other database of this
 *   origin. A write still waiting for the connection (the outbox: a submitted
 *   intake, a confirmed selection) is kept: it is what a client gave the
 *   store, it holds no more than they typed, and it goes once the server has
 *   it. That is also why sign-out's Clear-Site-Data says "cache" and not
 *   "storage", which would delete the whole database with it.
 * - Cache Storage: every cache (the service worker's offline shells and the
 *   files they load; it keeps them again at the next visit online).
 * - localStorage and sessionStorage (the app keeps nothing there; anything
 *   found there is cleared all the same).
 *
 * The service worker stays registered: it holds nothing itself. Plain
 * IndexedDB calls, no idb: the page after a sign-out loads this alone.
 * Never throws: a browser without one of these stores has nothing in it.
 */
export async function forgetDevice(): Promise<void> {
  await Promise.all([forgetDrafts(), forgetOtherDatabases(), forgetCaches()]);
  for (const storage of ["localStorage", "sessionStorage"] as const) {
    try {
      globalThis[storage].clear();
    } catch {
      // Not offered here (a private window of an old browser): nothing kept.
    }
  }
}

const isQueued = (id: IDBValidKey) => typeof id === "string" && id.startsWith("outbox:");

/** Deletes every kept entry but the outbox, in one transaction. */
function forgetDrafts(): Promise<void> {
  return new Promise((resolve) => {
    let open: IDBOpenDBRequest;
    try {
      open = indexedDB.open(DEVICE_DB);
    } catch {
      return resolve();
    }
    // The database did not exist: opening must not create it.
    open.onupgradeneeded = () => open.transaction?.abort();
    open.onerror = () => resolve();
    open.onblocked = () => resolve();
    open.onsuccess = () => {
      const db = open.result;
      const done = () => {
        db.close();
        resolve();
      };
      if (!db.objectStoreNames.contains(KEPT_STORE)) return done();
      const tx = db.transaction(KEPT_STORE, "readwrite");
      tx.oncomplete = done;
      tx.onerror = done;
      tx.onabort = done;
      const cursor = tx.objectStore(KEPT_STORE).openCursor();
      cursor.onsuccess = () => {
        const at = cursor.result;
        if (!at) return;
        if (!isQueued(at.key)) at.delete();
        at.continue();
      };
    };
  });
}

/** Any other database of this origin (the app makes none today). */
async function forgetOtherDatabases(): Promise<void> {
  let found: IDBDatabaseInfo[] = [];
  try {
    found = await indexedDB.databases();
  } catch {
    return;
  }
  await Promise.all(
    found.filter((info) => info.name && info.name !== DEVICE_DB).map((info) =>
      new Promise<void>((resolve) => {
        const del = indexedDB.deleteDatabase(info.name!);
        del.onsuccess = del.onerror = del.onblocked = () => resolve();
      })
    ),
  );
}

/** Cache Storage (only in a secure context: https or localhost). */
async function forgetCaches(): Promise<void> {
  try {
    const names = await globalThis.caches?.keys() ?? [];
    await Promise.all(names.map((name) => caches.delete(name)));
  } catch {
    // Not offered here: nothing kept.
  }
}
