// One engine: the OpenID Connect exchange with the provider.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { Events, OAuth2Server } from "oauth2-mock-server";
import {
  call,
  cookieFrom,
  createTestUser,
  sessionCookieFor,
  startTestApp,
  type TestApp,
} from "../helpers/test_app.ts";
import { hasControlChar, HOSTILE_RETURN_TO } from "../helpers/hostile_return_to.ts";
import { hashToken } from "../../src/auth/session.ts";

let provider: OAuth2Server, app: TestApp, claims: Record<string, unknown>;

before(async () => {
  provider = new OAuth2Server();
  await provider.issuer.keys.generate("RS256");
  await provider.start(0, "127.0.0.1");
  provider.service.on(Events.BeforeTokenSigning, (token) => {
    Object.assign(token.payload, claims);
  });
  app = await startTestApp({
    OIDC_ISSUER: provider.issuer.url!,
    OIDC_CLIENT_ID: "lensdesk",
    OIDC_CLIENT_SECRET: "s3cret",
    OWNER_EMAILS: "Olivia@Store.test, second@store.test",
  });
});
after(async () => {
  await app.close();
  await provider.stop();
});

/** Just signed in at the provider: what a provider honouring prompt=login reports. */
const freshAuth = () => ({ auth_time: Math.floor(Date.now() / 1000) - 5 });

/**
 * Walks the browser's redirects by hand from the Owner Login button
 * (/api/login?intent=owner): our /api/login, the provider, our callback.
 */
async function ownerSignIn(
  returnTo = "/clients",
  tamper?: (url: URL) => void,
  beforeProvider?: (authorize: URL) => Promise<void>,
) {
  const start = await call(
    app,
    "GET",
    `/api/login?intent=owner&returnTo=${encodeURIComponent(returnTo)}`,
  );
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin).toBe(new URL(provider.issuer.url!).origin);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${app.baseUrl}/api/callback`);
  // Always a fresh sign-in at the provider, never its lingering session.
  expect(authorize.searchParams.get("prompt")).toBe("login");
  expect(authorize.searchParams.get("max_age")).toBe("300");
  const flowCookie = cookieFrom(start, "lensdesk_oidc")!;
  expect(flowCookie).toBeDefined();
  await beforeProvider?.(authorize);
  const atProvider = await fetch(authorize, { redirect: "manual" });
  await atProvider.body?.cancel();
  const callback = new URL(atProvider.headers.get("location")!);
  tamper?.(callback);
  const back = await call(app, "GET", callback.pathname + callback.search, { cookie: flowCookie });
  return { back, session: cookieFrom(back, "lensdesk_session") };
}

describe("owner sign-in through OpenID Connect", () => {
  it("creates an OWNER flagged as external, signs it in and returns to returnTo", async () => {
    claims = {
      sub: "olivia-1",
      email: "olivia@store.test",
      email_verified: true,
      given_name: "Olivia",
      family_name: "Hart",
      ...freshAuth(),
    };
    const { back, session } = await ownerSignIn("/clients?filter=missing");
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe("/clients?filter=missing");
    expect(session).toBeDefined();
    const me = await call(app, "GET", "/api/auth/user", { cookie: session });
    expect(me.body).toMatchObject({
      firstName: "Olivia",
      lastName: "Hart",
      email: "olivia@store.test",
      role: "OWNER",
      isReplitUser: true,
    });
    // The staff bar's Logout goes through the provider path for this user.
    const page = await call<string>(app, "GET", "/dashboard", {
      cookie: session,
      headers: { accept: "text/html" },
    });
    expect(page.text).toContain('href="/api/logout"');
  });

  it("signs the same person into the same account next time", async () => {
    claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true, ...freshAuth() };
    const { session } = await ownerSignIn("/dashboard");
    const me = await call<{ id: string }>(app, "GET", "/api/auth/user", { cookie: session });
    const owners = await app.db.selectFrom("users").select("id")
      .where("externalSubject", "like", "%#olivia-1").execute();
    expect(owners).toEqual([{ id: me.body.id }]);
  });

  it("refuses an e-mail that is not in OWNER_EMAILS or not verified", async () => {
    for (
      const c of [
        { sub: "mallory", email: "mallory@evil.test", email_verified: true, ...freshAuth() },
        { sub: "second", email: "second@store.test", email_verified: false, ...freshAuth() },
        // A listed e-mail the provider does not say it verified.
        { sub: "second", email: "second@store.test", ...freshAuth() },
        { sub: "second", email: "second@store.test", email_verified: "true", ...freshAuth() },
        { sub: "nomail", ...freshAuth() },
      ]
    ) {
      claims = c;
      const { back, session } = await ownerSignIn();
      expect(back.headers.get("location")).toBe("/staff?owner=denied");
      expect(session).toBeUndefined();
    }
    const staffPage = await call<string>(app, "GET", "/staff?owner=denied", {
      headers: { accept: "text/html" },
    });
    expect(staffPage.text).toContain("This account is not allowed to sign in as an owner.");
  });

  it("refuses a listed e-mail already bound to another provider account", async () => {
    claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true, ...freshAuth() };
    expect((await ownerSignIn()).session).toBeDefined();
    // Another subject (another account at the provider) with the same address.
    claims = { sub: "olivia-2", email: "Olivia@store.test", email_verified: true, ...freshAuth() };
    const { back, session } = await ownerSignIn();
    expect(back.headers.get("location")).toBe("/staff?owner=denied");
    expect(session).toBeUndefined();
    const owners = await app.db.selectFrom("users").select("externalSubject")
      .where("isExternal", "=", true).where("email", "=", "olivia@store.test").execute();
    expect(owners.map((o) => o.externalSubject?.split("#")[1])).toEqual(["olivia-1"]);
    const refused = await app.db.selectFrom("auditLog").select("details")
      .where("action", "=", "auth.login_failed").orderBy("id", "desc").limit(1)
      .executeTakeFirstOrThrow();
    expect(refused.details).toMatchObject({
      reason: "e-mail already bound to another provider account",
    });
  });

  it("refuses a callback whose state does not match, or that comes without the flow cookie", async () => {
    claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true, ...freshAuth() };
    const { back, session } = await ownerSignIn("/clients", (url) => {
      url.searchParams.set("state", "forged");
    });
    expect(back.headers.get("location")).toBe("/staff?owner=failed");
    expect(session).toBeUndefined();
    const bare = await call(app, "GET", "/api/callback?code=x&state=y");
    expect(bare.headers.get("location")).toBe("/staff?owner=failed");
  });

  it("refuses an ID token signed by someone else", async () => {
    const other = new OAuth2Server();
    await other.issuer.keys.generate("RS256");
    await other.start(0, "127.0.0.1");
    try {
      claims = {
        sub: "olivia-1",
        email: "olivia@store.test",
        email_verified: true,
        ...freshAuth(),
      };
      const { back, session } = await ownerSignIn("/clients", undefined, async (authorize) => {
        // Everything right (issuer, audience, nonce) but the key, which the provider never published.
        const forged = await other.issuer.buildToken({
          scopesOrTransform: (_header, payload) => {
            Object.assign(payload, claims, {
              aud: "lensdesk",
              iss: provider.issuer.url,
              nonce: authorize.searchParams.get("nonce"),
            });
          },
        });
        provider.service.once(Events.BeforeResponse, (response) => {
          (response.body as Record<string, unknown>).id_token = forged;
        });
      });
      expect(back.headers.get("location")).toBe("/staff?owner=failed");
      expect(session).toBeUndefined();
    } finally {
      await other.stop();
    }
  });

  it("sends a lapsed staff session to the staff sign-in, never to the provider", async () => {
    // The owner signed in through the provider on this computer before.
    claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true, ...freshAuth() };
    expect((await ownerSignIn()).session).toBeDefined();
    // Now a staff member's session has lapsed and the screen's 401 handler
    // navigates to /api/login. Follow every redirect as the browser would.
    const staff = await createTestUser(app.db);
    const cookie = await sessionCookieFor(app.db, staff.id);
    await app.db.updateTable("sessions").set({ expiresAt: new Date(Date.now() - 1000) })
      .where("id", "=", hashToken(cookie.split("=")[1])).execute();
    // The browser keeps the cookies our site sets along the way (the flow cookie, a session).
    const jar = new Map([cookie.split("=") as [string, string]]);
    let url = new URL(`${app.baseUrl}/api/login?returnTo=${encodeURIComponent("/clients")}`);
    const visited: string[] = [];
    let session: string | undefined;
    for (let hop = 0; hop < 6; hop++) {
      const ours = url.origin === app.baseUrl;
      visited.push(ours ? url.pathname + url.search : url.origin);
      const sent = ours ? [...jar].map(([k, v]) => `${k}=${v}`).join("; ") : "";
      const res = await fetch(url, { headers: { cookie: sent }, redirect: "manual" });
      await res.body?.cancel();
      if (ours) {
        for (const header of res.headers.getSetCookie()) {
          const [pair] = header.split(";");
          const at = pair.indexOf("=");
          jar.set(pair.slice(0, at), pair.slice(at + 1));
        }
      }
      session ??= cookieFrom(res, "lensdesk_session");
      const location = res.headers.get("location");
      if (!location) break;
      url = new URL(location, url);
    }
    expect(visited).toEqual(["/api/login?returnTo=%2Fclients", "/staff?returnTo=%2Fclients"]);
    expect(session).toBeUndefined();
  });

  it("refuses an ID token whose auth_time is missing, too old or in the future", async () => {
    const now = Math.floor(Date.now() / 1000);
    for (const authTime of [undefined, now - 3600, now - 300 - 61, now + 3600]) {
      claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true };
      if (authTime !== undefined) claims.auth_time = authTime;
      const { back, session } = await ownerSignIn();
      expect([authTime, back.headers.get("location")]).toEqual([authTime, "/staff?owner=stale"]);
      expect(session).toBeUndefined();
    }
    const staffPage = await call<string>(app, "GET", "/staff?owner=stale", {
      headers: { accept: "text/html" },
    });
    expect(staffPage.text).toContain("Owner sign-in needs a fresh sign-in at the provider.");
    // Within max_age (and a minute of clock skew either way) is recent enough.
    for (const authTime of [now - 300, now + 30]) {
      claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true };
      claims.auth_time = authTime;
      expect((await ownerSignIn()).session).toBeDefined();
    }
  });

  it("keeps returnTo on the site across the round trip", async () => {
    for (const returnTo of HOSTILE_RETURN_TO.filter((value) => !hasControlChar(value))) {
      claims = {
        sub: "olivia-1",
        email: "olivia@store.test",
        email_verified: true,
        ...freshAuth(),
      };
      const { back, session } = await ownerSignIn(returnTo);
      expect(session).toBeDefined();
      expect([returnTo, back.headers.get("location")]).toEqual([returnTo, "/dashboard"]);
    }
    // A control character never starts the round trip: the query guard answers 400.
    for (const returnTo of HOSTILE_RETURN_TO.filter(hasControlChar)) {
      const start = await call(
        app,
        "GET",
        `/api/login?intent=owner&returnTo=${encodeURIComponent(returnTo)}`,
      );
      expect([returnTo, start.status]).toEqual([returnTo, 400]);
    }
  });
});
