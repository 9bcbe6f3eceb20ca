// Fits each printed sheet to its one page by measuring it in the browser. The
// server's fit (sheet_fit.ts) estimates from character counts and errs towards
// shrinking early, which left a quarter of a sheet empty while text was cut.
// Here the real sheet is laid out at the paper's width and measured: the
// largest type it fits at wins; at the smallest type (tighter rows too) free
// text is cut, with the system's mark, only as much as needed: option and
// internal notes first, then item names to one line each. Price lines are
// never left off. The print CSS's hidden overflow stays a last safety.
import { clipText, CONTINUED_IN_SYSTEM } from "../../src/print/clip_text.ts";

/** The densities of print.css, largest type first (sheet_fit.ts DENSITIES). */
export const DENSITY_CLASSES = [
  "print-density-0",
  "print-density-1",
  "print-density-2",
  "print-density-3",
  "print-density-4",
];

/**
 * Each sheet's page box in CSS px (print.css: the page less its margins, less
 * a hair), less 5 %: Chromium's print layout came out up to two table rows
 * taller than the same sheet measured on screen.
 */
const PAGE_HEIGHT: Record<string, number> = {
  internal: 7.44 * 96 * 0.95,
  client: 9.94 * 96 * 0.95,
};

/** Notes never cut shorter than this, so the mark has words before it. */
const NOTES_MIN = 40;
const ONE_LINE = "print-names-one-line";
const MEASURING = "print-measure";

/** The sheet's content height at the paper's width (print.css .print-measure). */
function contentHeight(sheet: HTMLElement): number {
  sheet.classList.add(MEASURING);
  const height = sheet.getBoundingClientRect().height;
  sheet.classList.remove(MEASURING);
  return height;
}

function setDensity(sheet: HTMLElement, density: string) {
  sheet.classList.remove(...DENSITY_CLASSES);
  sheet.classList.add(density);
}

/** Sets every note to the same share of its whole text (1: whole). */
function cutNotes(notes: HTMLElement[], share: number) {
  for (const note of notes) {
    const full = note.dataset.full!;
    note.textContent = share >= 1
      ? full
      : clipText(full, Math.max(NOTES_MIN, Math.floor(full.length * share)));
  }
}

/** Item names whole, or on one line each with an ellipsis (print.css), said under the table. */
function namesOnOneLine(sheet: HTMLElement, on: boolean) {
  sheet.classList.toggle(ONE_LINE, on);
  const note = sheet.querySelector<HTMLElement>("[data-table-note]");
  if (!note) return;
  note.textContent = on ? `Shortened descriptions are ${CONTINUED_IN_SYSTEM}.` : "";
  note.hidden = !on;
}

/** The largest share of the notes (to 1/64) at which the sheet fits. */
function largestShare(notes: HTMLElement[], fits: () => boolean): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 6; i++) {
    const mid = (lo + hi) / 2;
    cutNotes(notes, mid);
    if (fits()) lo = mid;
    else hi = mid;
  }
  cutNotes(notes, lo);
  return lo;
}

export interface SheetFitResult {
  density: string;
  notesShare: number;
  namesOnOneLine: boolean;
  fits: boolean;
}

/** Fits one sheet (an article with data-fit="internal" or "client"). */
export function fitSheet(sheet: HTMLElement): SheetFitResult {
  const limit = PAGE_HEIGHT[sheet.dataset.fit ?? ""] ?? PAGE_HEIGHT.client;
  const fits = () => contentHeight(sheet) <= limit;
  const notes = [...sheet.querySelectorAll<HTMLElement>(".print-notes[data-full]")];
  const names = [...sheet.querySelectorAll<HTMLElement>(".print-line-name[data-full]")];
  // Start from everything whole: the server may have cut more than it had to.
  cutNotes(notes, 1);
  for (const name of names) name.textContent = name.dataset.full!;
  namesOnOneLine(sheet, false);
  for (const density of DENSITY_CLASSES) {
    setDensity(sheet, density);
    if (fits()) return { density, notesShare: 1, namesOnOneLine: false, fits: true };
  }
  const smallest = DENSITY_CLASSES[DENSITY_CLASSES.length - 1];
  // Notes first: the lines staff order from keep their whole names while notes can give room.
  cutNotes(notes, 0);
  if (fits()) {
    const share = largestShare(notes, fits);
    return { density: smallest, notesShare: share, namesOnOneLine: false, fits: true };
  }
  namesOnOneLine(sheet, true);
  cutNotes(notes, 0);
  if (!fits()) return { density: smallest, notesShare: 0, namesOnOneLine: true, fits: false };
  const share = largestShare(notes, fits);
  return { density: smallest, notesShare: share, namesOnOneLine: true, fits: true };
}

/**
 * Fits every sheet on the page, hidden copies included (shown for the
 * measurement only, within one task, so nothing is painted in between).
 */
export function fitAllSheets(root: ParentNode = document): SheetFitResult[] {
  const hidden = [...root.querySelectorAll<HTMLElement>(".print-copy[hidden]")];
  for (const copy of hidden) copy.hidden = false;
  try {
    return [...root.querySelectorAll<HTMLElement>(".print-sheet[data-fit]")].map(fitSheet);
  } finally {
    for (const copy of hidden) copy.hidden = true;
  }
}
