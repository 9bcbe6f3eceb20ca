import * as z from "zod";
import type { QuoteStatus } from "../../db/schema.ts";
import { QUOTE_STATUSES } from "../quotes/rules.ts";
import { safeText } from "./text.ts";

// Query-string schemas of the lists, shared by the API and the pages that
// load a list's first page on the server.

/** What a person types in a search box. */
export const searchText = safeText().max(200, "Search text must be at most 200 characters");

const whole = (min: number, max: number, message: string) =>
  safeText().pipe(z.coerce.number<string>().int(message).min(min, message).max(max, message));

const PAGE_MESSAGE = "limit must be 1–200 and offset a whole number of 0 or more";

/** GET /api/clients, /clients/search and /clients/missing-measurements. */
export const clientListQuery = z.object({
  limit: whole(1, 200, PAGE_MESSAGE).optional(),
  offset: whole(0, 1_000_000, PAGE_MESSAGE).optional(),
  q: searchText.optional(),
  /** Only "missing" filters; anything else lists everyone (as the page link expects). */
  filter: safeText().optional(),
});

/** The /clients page: the filter and the client whose details open at once. */
export const clientsPageQuery = z.object({
  filter: safeText().optional(),
  id: safeText().max(100).optional(),
});

/**
 * The store a list shows: "all" (owners and admins), a store's id, or absent:
 * the store the device works in (every store while the chain has one).
 */
export const listStoreField = z.union([
  z.literal("all"),
  z.uuid({ error: 'store must be a store\'s id or "all"' }),
], { error: 'store must be a store\'s id or "all"' });

const statusField = z.enum(QUOTE_STATUSES as [QuoteStatus, ...QuoteStatus[]], {
  error: "Unknown status",
});

/** GET /api/quotes: the quote management list. */
export const quoteListQuery = z.object({
  q: searchText.optional(),
  search: searchText.optional(),
  status: statusField.optional(),
  filter: z.enum(["expired"], { error: "The only filter is expired" }).optional(),
  limit: whole(1, 500, "limit must be a whole number from 1 to 500").optional(),
  offset: whole(0, 1_000_000, "offset must be a whole number from 0 to 1000000").optional(),
  store: listStoreField.optional(),
});

/**
 * The /quotes page: the same search, but an unknown status or filter (an old
 * bookmark) shows every quote instead of an error page.
 */
export const quotesPageQuery = z.object({
  q: safeText().optional(),
  status: safeText().optional(),
  filter: safeText().optional(),
  store: safeText().optional(),
});
