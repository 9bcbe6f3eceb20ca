// The staff bar's Menu is a native <details> (it opens with a click, Enter or
// Space without any script). A menu should also close the way menus do:
// Escape (focus back on its button) and a click or tap anywhere outside it.
// The staff bar's search island (islands/SearchBox.tsx) calls this once when
// its code loads: every page with the bar has that island.

const OPEN_MENUS = "details.menu[open]";

export function dismissMenusOnEscapeAndOutsideClick(doc: Document): void {
  doc.addEventListener("keydown", (event) => {
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
