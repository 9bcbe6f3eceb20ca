import { type DBSchema, type IDBPDatabase, openDB } from "idb";

/**
 * What a client typed on a store tablet, kept in the browser's IndexedDB so a
 * reload, a crashed tab or a lost connection does not lose it: the form as it
 * is being typed (a draft) and a submit that is waiting for the connection
 * (the outbox). Nothing is kept longer than an hour; it goes as soon as the
 * server has it. Sign-out, the hand-over and the end of a kiosk session
 * remove every draft and keep only the outbox (forget_device.ts).
 */
export const KEEP_MS = 60 * 60 * 1000;

export type Shelf = "draft" | "outbox";

interface Kept {
  /** `${shelf}:${id}` */
  id: string;
  savedAt: number;
  value: unknown;
}

// One object store for both shelves: the page budget counts every byte.
interface DeviceDb extends DBSchema {
  kept: { key: string; value: Kept };
}

let opened: Promise<IDBPDatabase<DeviceDb>> | undefined;

// A browser without IndexedDB (an old Safari's private window) works as
// before: nothing is kept on the device.
async function quietly<T>(work: (db: IDBPDatabase<DeviceDb>) => Promise<T>) {
  try {
    // Named again in forget_device.ts, which clears it.
    opened ??= openDB<DeviceDb>("lensdesk-device", 1, {
      upgrade: (db) => db.createObjectStore("kept", { keyPath: "id" }),
    });
    return await work(await opened);
  } catch {
    return undefined;
  }
}

/**
 * Resolves once the write is committed, not only requested (idb's db.put
 * resolves at the request): "saved on this device" is said after it, and a
 * tab that died between the two lost the client's intake.
 */
export const keep = (shelf: Shelf, id: string, value: unknown, now = Date.now()) =>
  quietly(async (db) => {
    const tx = db.transaction("kept", "readwrite");
    await Promise.all([tx.store.put({ id: `${shelf}:${id}`, savedAt: now, value }), tx.done]);
  });

/**
 * What a kept screen does as it opens: starts the service worker that keeps
 * the intake page's shell for offline use (static/sw.js; browsers offer it
 * only on https or localhost), deletes whatever is older than an hour (any
 * screen's), and gives what is kept for `id` on each shelf.
 */
export const restore = <Draft, Queued>(id: string, now = Date.now()) => {
  navigator.serviceWorker?.register("/static/sw.js", { scope: "/" }).catch(() => {});
  return quietly(async (db) => {
    const found: { draft?: Draft; outbox?: Queued } = {};
    for (const kept of await db.getAll("kept")) {
      if (now - kept.savedAt > KEEP_MS) await db.delete("kept", kept.id);
      else if (kept.id === `draft:${id}`) found.draft = kept.value as Draft;
      else if (kept.id === `outbox:${id}`) found.outbox = kept.value as Queued;
    }
    return found;
  });
};

export const forget = (shelf: Shelf, id: string) =>
  quietly((db) => db.delete("kept", `${shelf}:${id}`));

/** Both shelves of one screen: the server has its work. */
export const forgetBoth = (id: string) => Promise.all([forget("draft", id), forget("outbox", id)]);
