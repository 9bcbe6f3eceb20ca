import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { currentStore } from "../../src/stores/current_store.ts";
import { auditActor } from "../../src/http/actor.ts";
import { HttpError, readJson } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { unwrap } from "../../src/http/outcome.ts";
import {
  changePasswordSchema,
  newUserSchema,
  resetPasswordSchema,
  updateUserSchema,
} from "../../src/schemas/users.ts";
import {
  changeOwnPassword,
  createUser,
  deleteUser,
  listUsers,
  outsideStores,
  resetUserPassword,
  setUserStores,
  updateUser,
} from "../../src/users/admin_users.ts";
import { findUserById } from "../../src/users/users.ts";
import { EXTERNAL_PASSWORD_MESSAGE } from "../../src/users/admin_users.ts";
import { checkPassword } from "../../src/auth/password_check.ts";
import { sendResetMail } from "../../src/auth/reset_mail.ts";
import { isUuid } from "../../src/db/ids.ts";
import { userStoresSchema } from "../../src/schemas/store.ts";
import { resetTwoFactorByOwner } from "../../src/auth/two_factor_reset.ts";

export const adminUsersApi = new Hono<AppEnv>();
const admin = requireUser("ADMIN", "OWNER");

const actorOf = (c: Context<AppEnv>) => ({
  ...auditActor(c),
  id: c.var.user!.id,
  role: c.var.user!.role,
  chainAdmin: c.var.user!.chainAdmin,
});

/** The users the caller administers or works beside (a store admin: their stores'). */
adminUsersApi.get(
  "/admin/users",
  admin,
  async (c) => c.json(await listUsers(c.var.db, actorOf(c))),
);

adminUsersApi.post("/admin/users/invite", admin, async (c) => {
  const input = await readJson(c, newUserSchema);
  // Without storeIds the new user works where the adder works now.
  const defaultStores = input.storeIds ? [] : [(await currentStore(c, c.var.user!)).id];
  return c.json(unwrap(await createUser(c.var.db, actorOf(c), input, defaultStores)), 201);
});

adminUsersApi.put("/admin/users/:id/stores", admin, async (c) => {
  const { storeIds } = await readJson(c, userStoresSchema);
  return c.json(unwrap(await setUserStores(c.var.db, actorOf(c), c.req.param("id"), storeIds)));
});

adminUsersApi.delete("/admin/users/:id", admin, async (c) => {
  unwrap(await deleteUser(c.var.db, actorOf(c), c.req.param("id")));
  return c.json({ message: "User deleted" });
});

adminUsersApi.put("/admin/users/:id/password", admin, async (c) => {
  const { newPassword } = await readJson(c, resetPasswordSchema);
  unwrap(
    await resetUserPassword(
      c.var.db,
      actorOf(c),
      c.req.param("id"),
      newPassword,
      c.var.session?.id,
    ),
  );
  return c.json({ message: "Password reset" });
});

adminUsersApi.put("/admin/users/:id", admin, async (c) => {
  const change = await readJson(c, updateUserSchema);
  return c.json(unwrap(await updateUser(c.var.db, actorOf(c), c.req.param("id"), change)));
});

adminUsersApi.put("/auth/change-password", requireUser(), async (c) => {
  const { currentPassword, newPassword } = await readJson(c, changePasswordSchema);
  const me = await findUserById(c.var.db, c.var.user!.id);
  // An owner signed in through the provider has no local password to check or change.
  if (me?.isExternal) throw new HttpError(409, EXTERNAL_PASSWORD_MESSAGE);
  // Counted and throttled like a sign-in: a session left open must not let
  // someone guess the password at leisure.
  const check = await checkPassword(c, {
    username: c.var.user!.username,
    user: me,
    password: currentPassword,
    purpose: "change_password",
    field: "currentPassword",
  });
  if (!me || !check.ok) {
    const message = "The current password is not correct";
    throw new HttpError(400, message, { currentPassword: message });
  }
  unwrap(await changeOwnPassword(c.var.db, me.id, c.var.session!.id, newPassword));
  return c.json({ message: "Password changed" });
});

/**
 * "Send reset e-mail" (offered for every user, spec section 6): mails the
 * user a reset link of their own, so it gives the sender no access; it is
 * counted against the user's own reset limit.
 */
adminUsersApi.post("/admin/users/:id/reset-email", admin, async (c) => {
  const { db, config, logger } = c.var;
  const id = c.req.param("id");
  const user = isUuid(id) ? await findUserById(db, id) : undefined;
  if (!user) throw new HttpError(404, "User not found");
  // A store admin mails only the users of their stores.
  const outside = await outsideStores(db, actorOf(c), id);
  if (outside) throw new HttpError(outside.status, outside.message);
  if (user.isExternal) throw new HttpError(409, EXTERNAL_PASSWORD_MESSAGE);
  const me = c.var.user!;
  const result = await sendResetMail(
    { db, appUrl: config.appUrl, secretKey: config.secretKey, logger },
    user,
    { id: me.id, label: me.username, name: `${me.firstName} ${me.lastName}`.trim() || me.username },
  );
  switch (result.status) {
    case "no_email":
      throw new HttpError(409, "This user has no e-mail address. Add one or reset the password.");
    case "not_configured":
      throw new HttpError(
        409,
        "Email is not configured, so no reset e-mail can be sent. Configure email in Settings, or reset the password instead.",
      );
    case "limited":
      throw new HttpError(
        429,
        "Too many reset e-mails were sent to this user in the last hour. Please try again later.",
      );
    case "sent":
      return c.json({ status: "sent", message: `Password reset email sent to ${result.to}.` });
    case "queued":
      return c.json({
        status: "queued",
        message:
          `The mail server could not be reached, so the reset e-mail to ${result.to} was not sent yet. It will be retried automatically.`,
      }, 202);
  }
});

/**
 * An owner turns another user's second factor off (a lost phone, a locked
 * second factor): audited, every session of the user ended, and the user told
 * by e-mail. The answer says whether the e-mail went out.
 */
adminUsersApi.delete("/admin/users/:id/two-factor", requireUser("OWNER"), async (c) => {
  const { db, config, logger } = c.var;
  const me = c.var.user!;
  const result = await resetTwoFactorByOwner(
    { db, appUrl: config.appUrl, secretKey: config.secretKey, logger },
    {
      ...actorOf(c),
      name: `${me.firstName} ${me.lastName}`.trim() || me.username,
    },
    c.req.param("id"),
  );
  if (!result.ok) throw new HttpError(result.status, result.message);
  const done = `Two-factor sign-in of ${result.username} was reset.`;
  const told = {
    sent: `They were told by e-mail at ${result.to}.`,
    queued:
      `The mail server could not be reached, so the e-mail telling them will be retried automatically.`,
    no_email: "They have no e-mail address, so tell them yourself.",
    not_configured: "Email is not configured, so tell them yourself.",
  }[result.notice];
  return c.json({ notice: result.notice, message: `${done} ${told}` });
});
