// The staff bar's Menu is a native <details> (it opens with a click, Enter or
// Space without any script). A menu should also close the way menus do:
// Escape (focus back on its button) and a click or tap anywhere outside it,
// and move with the arrow keys. Table rows' menus (components/RowMenu.tsx) are the same.
// The staff bar's search island (islands/SearchBox.tsx) calls this once when
// its code loads: every page with the bar has that island.

const OPEN_MENUS = "details.menu[open]";
const MOVE_KEYS = new Set(["ArrowDown", "ArrowUp", "Home", "End"]);

/**
 * The arrow keys move through a menu's items as in any menu (Tab does too):
 * ArrowDown from the menu's button opens it on its first item, ArrowUp on its
 * last; Home and End go to the first and last. Items shown at other screen widths only
 * (display: none) and disabled ones are passed over.
 */
function moveInMenu(event: KeyboardEvent): void {
  const target = event.target as Element | null;
  const menu = target?.closest?.("details.menu") as HTMLDetailsElement | null;
  if (!menu) return;
  const onButton = target!.matches("summary");
  if (onButton && event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  if (onButton) menu.open = true;
  const items = Array.from(menu.querySelectorAll<HTMLElement>(".menu-item"))
    .filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
  if (items.length === 0) return;
  const at = items.indexOf(target as HTMLElement);
  const next = (onButton && event.key === "ArrowDown") || event.key === "Home"
    ? 0
    : (onButton && event.key === "ArrowUp") || event.key === "End"
    ? items.length - 1
    : event.key === "ArrowDown"
    ? (at + 1) % items.length
    : (at - 1 + items.length) % items.length;
  event.preventDefault();
  items[next].focus();
}

export function dismissMenusOnEscapeAndOutsideClick(doc: Document): void {
  doc.addEventListener("keydown", (event) => {
    if (MOVE_KEYS.has(event.key)) return moveInMenu(event);
    if (event.key !== "Escape") return;
    for (const menu of Array.from(doc.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS))) {
      const hadFocus = menu.contains(doc.activeElement);
      menu.open = false;
      if (hadFocus) menu.querySelector("summary")?.focus();
    }
  });
  doc.addEventListener("pointerdown", (event) => {
    const target = event.target as Node | null;
    for (const menu of Array.from(doc.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS))) {
      if (!target || !menu.contains(target)) menu.open = false;
    }
  });
  // Tabbing out of an open menu leaves it open otherwise, covering the page.
  doc.addEventListener("focusin", (event) => {
    const target = event.target as Node | null;
    for (const menu of Array.from(doc.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS))) {
      if (!target || !menu.contains(target)) menu.open = false;
    }
  });
}
