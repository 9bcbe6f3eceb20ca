import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { Events, OAuth2Server } from "oauth2-mock-server";
import { call, startTestApp, type TestApp } from "../helpers/test_app.ts";

let provider: OAuth2Server;
let app: TestApp;
let claims: Record<string, unknown>;

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

function cookieFrom(res: { headers: Headers }, name: string): string | undefined {
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (pair.startsWith(`${name}=`) && pair.length > name.length + 1) return pair;
  }
  return undefined;
}

/** Walks the browser's redirects by hand: our /api/login, the provider, our callback. */
async function ownerSignIn(
  returnTo = "/clients",
  tamper?: (url: URL) => void,
  beforeProvider?: (authorize: URL) => Promise<void>,
) {
  const start = await call(app, "GET", `/api/login?returnTo=${encodeURIComponent(returnTo)}`);
  expect(start.status).toBe(302);
  const authorize = new URL(start.headers.get("location")!);
  expect(authorize.origin).toBe(new URL(provider.issuer.url!).origin);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${app.baseUrl}/api/callback`);
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
    claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true };
    const { session } = await ownerSignIn("/dashboard");
    const me = await call<{ id: string }>(app, "GET", "/api/auth/user", { cookie: session });
    const owners = await app.db.selectFrom("users").select("id")
      .where("externalSubject", "like", "%#olivia-1").execute();
    expect(owners).toEqual([{ id: me.body.id }]);
  });

  it("refuses an e-mail that is not in OWNER_EMAILS or not verified", async () => {
    for (
      const c of [
        { sub: "mallory", email: "mallory@evil.test", email_verified: true },
        { sub: "second", email: "second@store.test", email_verified: false },
        { sub: "nomail" },
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

  it("refuses a callback whose state does not match, or that comes without the flow cookie", async () => {
    claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true };
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
      claims = { sub: "olivia-1", email: "olivia@store.test", email_verified: true };
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
});
