import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import type { AssetManifest } from "../../src/assets/manifest.ts";
import { renderPage } from "../render_page.tsx";
import { renderUnauthorized } from "./unauthorized.tsx";
import { Island } from "../../components/Island.tsx";
import { isAdminRole } from "../../components/StaffNav.tsx";
import UserManagement, { type UserManagementProps } from "../../islands/UserManagement.tsx";
import { listUsers } from "../../src/users/admin_users.ts";
import { findActiveStores } from "../../src/stores/stores.ts";
import { administeredStoreIds } from "../../src/stores/scope.ts";

export const UNAUTHORIZED_USERS_TEXT = "Unauthorized: Admin access required";

export function adminUsersPages(manifest: AssetManifest) {
  const app = new Hono<AppEnv>();

  // Signed-out visitors never get here: /admin paths send them to sign in.
  app.get("/admin/users", async (c) => {
    const user = c.var.user!;
    if (!isAdminRole(user.role)) {
      return renderUnauthorized(c, manifest, UNAUTHORIZED_USERS_TEXT, "User Management");
    }
    const db = c.var.db;
    const viewer = { id: user.id, role: user.role, chainAdmin: user.chainAdmin };
    const [initialUsers, stores, mine] = await Promise.all([
      // The same list the API gives, so the first paint is complete.
      listUsers(db, { ...viewer, label: user.username }),
      findActiveStores(db),
      administeredStoreIds(db, viewer),
    ]);
    const props: UserManagementProps = {
      initialUsers,
      // A store admin's rules need their stores (src/users/permissions.ts).
      currentUser: mine ? { ...viewer, storeIds: [...mine] } : viewer,
      // A chain of one store shows no stores at all, as before.
      chain: stores.length > 1
        ? { stores, giveable: mine ? stores.filter((s) => mine.has(s.id)) : stores }
        : undefined,
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
