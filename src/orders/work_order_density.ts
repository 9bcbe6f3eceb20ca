// The type sizes a work order sheet may be set in, largest first, in points:
// the print page's classes (work-order-density-N in orders.css, chosen by
// components/orders/fit_work_orders.ts) and the PDF (src/pdf/work_order_pdf.tsx)
// use the same ones, so both set a sheet alike. Its own module: the print
// page's script imports it without the work order's model.

export const WORK_ORDER_DENSITIES = [
  { size: 10, leading: 1.35 },
  { size: 9, leading: 1.3 },
  { size: 8, leading: 1.3 },
  { size: 7, leading: 1.25 },
  { size: 6, leading: 1.2 },
];
export const WORK_ORDER_LAST = WORK_ORDER_DENSITIES.length - 1;
export const densityClass = (level: number) => `work-order-density-${level}`;
