import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { Island } from "../../components/Island.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import UserManagement, { type UserManagementProps } from "../../islands/UserManagement.tsx";
import { listUsers } from "../../src/users/admin_users.ts";

export const UNAUTHORIZED_USERS_TEXT = "Unauthorized: Admin access required";

export function adminUsersPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Signed-out visitors never get here: /admin paths send them to sign in.
  app.get("/admin/users", async (c) => {
    const user = c.var.user!;
    if (!isAdminRole(user.role)) {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_USERS_TEXT, "User Management");
    }
    // The same list the API gives, so the first paint is complete.
    const props: UserManagementProps = {
      initialUsers: await listUsers(c.var.db),
      currentUser: { id: user.id, role: user.role },
    };
    return renderPage(
      c,
      manifest,
      <Island name="UserManagement" component={UserManagement} props={props} />,
      { title: "User Management" },
    );
  });

  return app;
}
