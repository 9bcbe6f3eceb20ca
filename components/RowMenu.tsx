import { type ReactNode, useId, useState } from "react";

/**
 * A table row's menu of its less common actions. It is the staff bar's Menu
 * (components/StaffNav.tsx): a native <details class="menu"> that opens with a
 * click, Enter or Space, and that components/menu_dismiss.ts closes on Escape
 * (focus back on the button), a click outside or focus leaving it, and moves
 * through with the arrow keys, Home and End. Here, in an island, the button
 * also says it opens a menu and whether it is open (aria-haspopup,
 * aria-expanded), and choosing an item closes the menu and puts focus back on
 * the button, so a dialog the item opens gives focus back there when it closes.
 * Items are `.menu-item` elements with role="menuitem".
 */
export function RowMenu(
  { name, children }: {
    /** The button's accessible name, e.g. "More actions for quote Q-1001". */
    name: string;
    children: ReactNode;
  },
) {
  const [open, setOpen] = useState(false);
  const buttonId = useId();
  return (
    <details
      className="menu row-menu"
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary
        id={buttonId}
        className="btn btn-outline btn-sm chevron"
        aria-label={name}
        aria-haspopup="menu"
        aria-expanded={open}
      >
        <span className="row-menu-text">More</span>
        <span className="row-menu-dots" aria-hidden="true">⋯</span>
      </summary>
      <div
        className="menu-panel"
        role="menu"
        aria-labelledby={buttonId}
        onClick={(event) => {
          const item = (event.target as Element).closest(".menu-item");
          const menu = event.currentTarget.closest("details");
          if (!item || !menu) return;
          menu.open = false;
          menu.querySelector("summary")?.focus();
        }}
      >
        {children}
      </div>
    </details>
  );
}
