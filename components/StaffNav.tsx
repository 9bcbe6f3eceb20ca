import type { Role } from "../db/schema.ts";
import type { ReactNode } from "react";

export interface NavUser {
  displayName: string;
  role: Role;
  isExternal: boolean;
}

interface NavEntry {
  label: string;
  href: string;
  adminOnly?: boolean;
  active: (path: string) => boolean;
}

const under = (prefix: string) => (p: string) => p === prefix || p.startsWith(prefix + "/");

export const NAV_ENTRIES: NavEntry[] = [
  { label: "Dashboard", href: "/dashboard", active: (p) => p === "/" || under("/dashboard")(p) },
  { label: "Clients", href: "/clients", active: under("/clients") },
  { label: "Quotes", href: "/quotes", active: under("/quotes") },
  { label: "Orders", href: "/orders", active: under("/orders") },
  { label: "New Client", href: "/intake", active: under("/intake") },
  { label: "Reports", href: "/reports", adminOnly: true, active: under("/reports") },
  {
    label: "Admin",
    href: "/admin",
    adminOnly: true,
    active: (p) =>
      under("/admin")(p) && !under("/admin/settings")(p) && !under("/admin/users")(p) &&
      !under("/admin/stores")(p),
  },
  {
    label: "Settings",
    href: "/admin/settings",
    adminOnly: true,
    active: (p) =>
      under("/admin/settings")(p) || under("/admin/users")(p) || under("/admin/stores")(p),
  },
];

export const isAdminRole = (role: Role) => role === "ADMIN" || role === "OWNER";

/** Where Logout goes: the provider's logout for external sign-ins, else the staff one. */
export const logoutPath = (user: { isExternal: boolean }) =>
  user.isExternal ? "/api/logout" : "/api/staff/logout";

/**
 * The staff bar, rendered on the server. Its one island is the global search,
 * which the page shell passes in as `search` (components do not import
 * islands; routes/render_page.tsx does); the Menu dropdown is a native <details>, which opens with a click, Enter or
 * Space without any script, and closes on Escape or a click outside once the
 * search island has loaded (components/menu_dismiss.ts, called by islands/SearchBox.tsx).
 *
 * On a phone (up to 560 px) the bar is one row (logo, search, Menu): the
 * entries move into the Menu. They are in the markup twice, the bar's and the
 * Menu's; CSS shows one set at any width (display: none hides the other from
 * everyone), so no script is needed and there is one Main navigation at a time.
 */
export function StaffNav(
  { user, path, storeName, logoUrl, search, storePicker }: {
    user: NavUser;
    path: string;
    storeName: string;
    logoUrl: string;
    /** The global search box (an island), placed between the entries and the Menu. */
    search?: ReactNode;
    /** The stores the user works in, when more than one: the picker of this device's store. */
    storePicker?: StorePickerProps;
  },
) {
  const entries = NAV_ENTRIES.filter((e) => !e.adminOnly || isAdminRole(user.role));
  return (
    <header className="topbar">
      <div className="topbar-inner">
        <a href="/" className="brand" aria-label={`${storeName} home`}>
          <img src={logoUrl} alt="" className="brand-logo" />
          <span className="brand-name">{storeName}</span>
        </a>
        <nav aria-label="Main" className="mainnav">
          {entries.map((e) => (
            <a key={e.href} href={e.href} aria-current={e.active(path) ? "page" : undefined}>
              {e.label}
            </a>
          ))}
        </nav>
        {search}
        <div className="usermenu">
          {storePicker && storePicker.stores.length > 1 && <StorePicker {...storePicker} />}
          <span className="user-name" data-testid="user-name">{user.displayName}</span>
          <details className="menu">
            <summary className="btn btn-ghost btn-sm chevron">Menu</summary>
            <div className="menu-panel">
              <nav aria-label="Main" className="menu-nav">
                {entries.map((e) => (
                  <a
                    key={e.href}
                    href={e.href}
                    className="menu-item"
                    aria-current={e.active(path) ? "page" : undefined}
                  >
                    {e.label}
                  </a>
                ))}
              </nav>
              <a href="/account/password" className="menu-item">Change My Password</a>
              {isAdminRole(user.role) && (
                <a href="/account/two-factor" className="menu-item">Two-Factor Sign-In</a>
              )}
              <a href={logoutPath(user)} className="menu-item">Logout</a>
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}

export interface StorePickerProps {
  stores: { id: string; code: string; name: string }[];
  currentId: string;
  /** The page to come back to once the store is switched. */
  returnTo: string;
}

/**
 * The store this device works in, for a user of several stores: a menu of
 * plain form buttons (routes/api/store_switch.ts), so switching needs no
 * script; the page comes back in the chosen store (its lists, its name).
 */
export function StorePicker({ stores, currentId, returnTo }: StorePickerProps) {
  const current = stores.find((s) => s.id === currentId) ?? stores[0];
  return (
    <details className="menu store-menu">
      <summary
        className="btn btn-ghost btn-sm chevron"
        aria-label={`${current.code}: ${current.name}, switch store`}
        data-testid="current-store"
      >
        {current.code}
      </summary>
      <div className="menu-panel">
        <form method="post" action="/api/stores/switch">
          <input type="hidden" name="returnTo" value={returnTo} />
          {stores.map((s) => (
            <button
              key={s.id}
              type="submit"
              name="storeId"
              value={s.id}
              className="menu-item"
              aria-current={s.id === current.id ? "true" : undefined}
            >
              {s.name} ({s.code})
            </button>
          ))}
        </form>
      </div>
    </details>
  );
}
