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
