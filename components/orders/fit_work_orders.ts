// Sets each printed work order sheet in the largest of the work order's type
// sizes (WORK_ORDER_DENSITIES) at which it fits one page, by measuring the
// real sheet at the paper's width, as fit_sheets.ts does for the quote copies.
// Nothing is ever cut: a sheet too long even in the smallest type stays in it
// and continues on the next page (orders.css lets it; its header repeats).
import { densityClass, WORK_ORDER_DENSITIES } from "../../src/orders/work_order_density.ts";

const CLASSES = WORK_ORDER_DENSITIES.map((_, i) => densityClass(i));
const MEASURING = "print-measure";
const PX_PER_IN = 96;
/**
 * Each paper's page box in CSS px (orders.css: the page less its margins),
 * less 2 %: room for the rounding of the browser's print layout, which the
 * print tests found within a few pixels of the sheet measured on screen.
 */
const PAGE_HEIGHT: Record<string, number> = {
  letter: 10 * PX_PER_IN * 0.98,
  a4: (297 / 25.4 - 1) * PX_PER_IN * 0.98,
};

export interface WorkOrderFit {
  level: number;
  /** Fits one page at that level; false: it continues on the next page. */
  fits: boolean;
}

function contentHeight(sheet: HTMLElement): number {
  sheet.classList.add(MEASURING);
  const height = sheet.getBoundingClientRect().height;
  sheet.classList.remove(MEASURING);
  return height;
}

export function fitWorkOrder(sheet: HTMLElement): WorkOrderFit {
  const limit = PAGE_HEIGHT[sheet.dataset.workOrderFit ?? ""] ?? PAGE_HEIGHT.letter;
  for (const [level, density] of CLASSES.entries()) {
    sheet.classList.remove(...CLASSES);
    sheet.classList.add(density);
    if (contentHeight(sheet) <= limit) {
      delete sheet.dataset.continues;
      return { level, fits: true };
    }
  }
  sheet.dataset.continues = "true";
  return { level: CLASSES.length - 1, fits: false };
}

/** Fits every work order sheet on the page. */
export function fitWorkOrders(root: ParentNode = document): WorkOrderFit[] {
  return [...root.querySelectorAll<HTMLElement>(".print-sheet[data-work-order-fit]")]
    .map(fitWorkOrder);
}
