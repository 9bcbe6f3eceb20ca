import type { QuoteStatus } from "../../db/schema.ts";
import type { QuoteListRow } from "../../src/quotes/views.ts";
import { ApiError } from "../api_client.ts";

/** Rows per request; "Load more" asks for the next page. */
export const QUOTE_PAGE_SIZE = 100;

/** "" is all quotes; "expired" is sent as filter=expired, a status as status=. */
export type QuoteListFilter = QuoteStatus | "expired" | "";

/** Every list query starts with this, so one invalidation refreshes them all. */
export const QUOTE_LISTS_KEY = ["quotes", "list"] as const;
export const quoteListKey = (filter: QuoteListFilter, q: string, store = "") =>
  [...QUOTE_LISTS_KEY, filter, q, store] as const;

export interface QuotePage {
  rows: QuoteListRow[];
  total: number;
  /** The total is a floor: a search found this many and stopped counting. */
  atLeast: boolean;
}

/** `store` is a store's id or "all"; empty is the device's current store (a chain of one: every quote). */
export function quoteListUrl(
  filter: QuoteListFilter,
  q: string,
  offset: number,
  store = "",
): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (store) params.set("store", store);
  if (filter === "expired") params.set("filter", "expired");
  else if (filter) params.set("status", filter);
  params.set("limit", String(QUOTE_PAGE_SIZE));
  params.set("offset", String(offset));
  return `/api/quotes?${params}`;
}

/**
 * Like apiRequest, but keeps X-Total-Count, which apiRequest drops: the
 * heading shows how many quotes match, not how many are loaded.
 */
export async function fetchQuotePage(
  filter: QuoteListFilter,
  q: string,
  offset: number,
  store = "",
): Promise<QuotePage> {
  const res = await fetch(quoteListUrl(filter, q, offset, store), {
    credentials: "same-origin",
    headers: { accept: "application/json" },
  });
  const text = await res.text().catch(() => "");
  if (!res.ok) {
    let message = text.trim() || res.statusText || "Request failed";
    try {
      const json = JSON.parse(text);
      if (json && typeof json.message === "string" && json.message) message = json.message;
    } catch {
      // Not JSON: keep the text.
    }
    throw new ApiError(res.status, message);
  }
  const rows = JSON.parse(text) as QuoteListRow[];
  const total = Number(res.headers.get("X-Total-Count"));
  return {
    rows,
    total: Number.isFinite(total) ? total : rows.length,
    atLeast: res.headers.get("X-Total-Count-At-Least") === "true",
  };
}

export const DAY_MS = 24 * 60 * 60 * 1000;
export const EXPIRY_WARNING_DAYS = 7;

/** Red once past, amber within a week, plain otherwise (spec: quote management). */
export function expiryTone(expiresAt: string | null, now = Date.now()): "past" | "soon" | "normal" {
  if (!expiresAt) return "normal";
  const at = new Date(expiresAt).getTime();
  if (Number.isNaN(at)) return "normal";
  if (at < now) return "past";
  if (at - now <= EXPIRY_WARNING_DAYS * DAY_MS) return "soon";
  return "normal";
}
