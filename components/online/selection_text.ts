// Its own module: the online page's island imports it without pulling the
// server-side view code (money, quote rules) into the page's script.

/** "1 option selected", "3 options selected", or a nudge when none is (as on the tablet). */
export function selectionText(n: number): string {
  if (n === 0) return "No options selected yet";
  return `${n} ${n === 1 ? "option" : "options"} selected`;
}
