// Measuring what react-pdf laid out.
// Every sheet is laid out unbreakable (wrap={false}): react-pdf then lays
// each page out once, where a breakable page is laid out again for every
// sheet it is split into. An unbreakable page takes its content's height,
// so the content sits in a box of the sheet's height, positioned absolutely
// in it so that nothing squeezes it: whether it fits is then read from the
// layout react-pdf hands to the document's onRender. The price table's rows
// carry a mark too, so the last level can count those that fit.

/** The mark on a sheet's content box: the height it may take. */
export const SHEET_MARK = "data-pdf-room";
/** The mark on a price-table row's layout node: its index in the table. */
const ROW_MARK = "data-pdf-row";
export const rowMark = (row: number) => ({ [ROW_MARK]: row });

interface LayoutNode {
  type?: string;
  props?: Record<string, unknown>;
  box?: { top: number; height: number };
  children?: LayoutNode[];
}

/** What the layout learns from a render about one sheet. */
interface SheetReport {
  /** The content is taller than the room the sheet has for it. */
  overflows: boolean;
  /** Leading price-table rows that end within that room. */
  rowsThatFit: number;
}

function measure(page: LayoutNode): SheetReport {
  let bottom = 0;
  let room = Infinity;
  const rowBottoms: number[] = [];
  const walk = (node: LayoutNode, top: number) => {
    const at = top + (node.box?.top ?? 0);
    const height = node.box?.height ?? 0;
    const sheet = node.props?.[SHEET_MARK];
    if (typeof sheet === "number") {
      room = at + sheet;
      bottom = at + height;
    }
    const row = node.props?.[ROW_MARK];
    if (typeof row === "number") rowBottoms[row] = at + height;
    for (const child of node.children ?? []) walk(child, at);
  };
  walk(page, 0);
  let rowsThatFit = 0;
  while (rowsThatFit < rowBottoms.length && rowBottoms[rowsThatFit] <= room + 0.01) {
    rowsThatFit++;
  }
  return { overflows: bottom > room + 0.01, rowsThatFit };
}

/**
 * The sheets' reports from the layout react-pdf passes to onRender (an
 * internal field); `more`: pages may follow the `count` sheets (a page that
 * may break onto another), which have no report.
 */
export function reportsFrom(
  rendered: unknown,
  count: number,
  { more = false }: { more?: boolean } = {},
): SheetReport[] {
  const layout = (rendered as { _INTERNAL__LAYOUT__DATA_?: LayoutNode } | undefined)
    ?._INTERNAL__LAYOUT__DATA_;
  const all = layout?.children?.filter((node) => node.type === "PAGE") ?? [];
  const pages = more ? all.slice(0, count) : all;
  if (pages.length !== count) {
    // A react-pdf that stops reporting its layout must fail loudly, not print overflowing pages.
    throw new Error(`react-pdf reported ${pages.length} laid-out pages for ${count} sheets`);
  }
  return pages.map(measure);
}
