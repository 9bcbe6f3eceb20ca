import { describe, it } from "node:test";
import { expect } from "expect";
import { renderToString } from "react-dom/server";
import { logoutPath, NAV_ENTRIES, StaffNav } from "./StaffNav.tsx";

const active = (path: string) => NAV_ENTRIES.filter((e) => e.active(path)).map((e) => e.label);

describe("StaffNav", () => {
  it("highlights one entry per screen, Settings also on user management", () => {
    expect(active("/")).toEqual(["Dashboard"]);
    expect(active("/dashboard")).toEqual(["Dashboard"]);
    expect(active("/quotes")).toEqual(["Quotes"]);
    expect(active("/admin")).toEqual(["Admin"]);
    expect(active("/admin/settings")).toEqual(["Settings"]);
    expect(active("/admin/users")).toEqual(["Settings"]);
    expect(active("/intake")).toEqual(["New Client"]);
    expect(active("/reports")).toEqual(["Reports"]);
    expect(active("/admin/audit")).toEqual(["Admin"]);
  });

  it("shows Reports, Admin and Settings to ADMIN and OWNER only", () => {
    const render = (role: "AUTHORIZED_USER" | "ADMIN" | "OWNER") =>
      renderToString(
        <StaffNav
          user={{ displayName: "Maria", role, isExternal: false }}
          path="/dashboard"
          storeName="Store"
          logoUrl="/static/logo.svg"
        />,
      );
    expect(render("AUTHORIZED_USER")).not.toContain(">Admin<");
    expect(render("AUTHORIZED_USER")).not.toContain(">Settings<");
    expect(render("AUTHORIZED_USER")).not.toContain(">Reports<");
    for (const role of ["ADMIN", "OWNER"] as const) {
      expect(render(role)).toContain(">Admin<");
      expect(render(role)).toContain(">Settings<");
      expect(render(role)).toContain(">Reports<");
    }
  });

  it("logs external sign-ins out through the provider path", () => {
    expect(logoutPath({ isExternal: true })).toBe("/api/logout");
    expect(logoutPath({ isExternal: false })).toBe("/api/staff/logout");
  });
});
