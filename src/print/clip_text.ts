// Each option prints on exactly one sheet, on paper and in the PDF, however
// long its notes, names and lists are. What does not fit is shortened or left
// off, and the sheet says so in the words below, so a reader knows the rest
// is in the system rather than missing. The print pages and the PDF share
// these rules; each decides from its own layout how much fits.

/** The words that mark text or lines a sheet left off. */
export const CONTINUED_IN_SYSTEM = "continued in the system";

/**
 * Text cut to at most `limit` characters at a word boundary, ending with a
 * mark that the rest is in the system; unchanged when it fits. The mark is
 * extra: the result can be up to 30 characters longer than `limit`.
 */
export function clipText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  // At a word boundary unless that would throw away most of the text.
  const atWord = cut.replace(/\s+\S*$/, "");
  const kept = (atWord.length >= limit * 0.6 ? atWord : cut).trimEnd();
  return `${kept}… (${CONTINUED_IN_SYSTEM})`;
}

/** A line's description cut to at most `limit` characters (ellipsis included); unchanged when it fits. */
export function shortenName(name: string, limit: number): string {
  if (name.length <= limit) return name;
  const cut = name.slice(0, limit - 1);
  const atWord = cut.replace(/\s+\S*$/, "");
  return `${(atWord.length >= limit * 0.6 ? atWord : cut).trimEnd()}…`;
}

/**
 * What a sheet says under a price table it could not show whole: how many
 * lines it left off (the total still counts them), and that shortened
 * descriptions are in full in the system. Empty when nothing was left off.
 */
export function priceTableNote(hiddenLines: number, shortenedNames: boolean): string {
  const parts: string[] = [];
  if (hiddenLines > 0) {
    parts.push(
      `${hiddenLines} more item${hiddenLines === 1 ? "" : "s"} ${CONTINUED_IN_SYSTEM}; ` +
        "the total includes them all.",
    );
  }
  if (shortenedNames) parts.push(`Shortened descriptions are ${CONTINUED_IN_SYSTEM}.`);
  return parts.join(" ");
}
