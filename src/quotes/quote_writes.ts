// What every quote write answers (saving, the tablet's selection, the
// lifecycle's moves), and how a status change is recorded in the history.
import type { QuoteStatus } from "../../db/schema.ts";
import type { SaveProblem } from "./rules.ts";

export type WriteResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 404 | 409; message: string; problems?: SaveProblem[] };

export const notFound = { ok: false, status: 404, message: "Quote not found" } as const;
export const STALE_MESSAGE =
  "This quote was changed elsewhere (for example on the tablet) since you opened it. " +
  "Reload the page to see the latest version; nothing you had saved before was lost.";

/** A status change as the history records it, or nothing when it stayed. */
export const statusChange = (from: QuoteStatus, to: QuoteStatus) =>
  from === to ? {} : { status: { from, to } };
