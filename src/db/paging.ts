/** A page of an offset-paged list, as a caller asks for it. */
export interface Page {
  limit?: number;
  offset?: number;
}

/**
 * The page to read: `size` rows unless the caller says, never fewer than 1
 * or more than `max`, from offset 0 or later. Every list pages this way.
 */
export function pageOf({ limit, offset }: Page, size: number, max: number) {
  return {
    limit: Math.min(Math.max(Math.trunc(limit ?? size), 1), max),
    offset: Math.max(Math.trunc(offset ?? 0), 0),
  };
}

/**
 * The total a page of an offset-paged list shows by itself, or undefined when
 * only a count can tell: a page shorter than its limit is the end of the
 * list, unless it is empty past the first page (the list may end anywhere
 * before its offset).
 */
export function totalFromPage(offset: number, limit: number, rows: number): number | undefined {
  if (rows >= limit) return undefined;
  if (rows === 0 && offset > 0) return undefined;
  return offset + rows;
}
