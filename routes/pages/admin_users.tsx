import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../../src/http/render.tsx";
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
      // The spec's "go to / after 0.5 s", done without script as on /admin/settings.
      return renderPage(
        c,
        manifest,
        <div className="card center-card narrow" role="alert">
          <meta httpEquiv="refresh" content="0.5;url=/" />
          <p>{UNAUTHORIZED_USERS_TEXT}</p>
        </div>,
        { title: "User Management", status: 403 },
      );
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
