// Apart from tablet_view.ts, whose quote rules the tablet page does not load
// (the server sends the client's view ready-made).

/** "1 option selected", "3 options selected", or a nudge when none is. */
export function selectionCountText(n: number): string {
  if (n === 0) return "No options selected yet";
  return `${n} ${n === 1 ? "option" : "options"} selected`;
}
