import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from "arctic";
import { createRemoteJWKSet, jwtVerify } from "jose";
import type { Config } from "../config/config.ts";

type OidcConfig = NonNullable<Config["oidc"]>;

interface ProviderMetadata {
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

const metadataCache = new Map<string, Promise<ProviderMetadata>>();

/** Reads the provider's discovery document once per issuer (retried after a failure). */
function providerMetadata(issuer: string): Promise<ProviderMetadata> {
  let cached = metadataCache.get(issuer);
  if (!cached) {
    cached = (async () => {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`OIDC discovery failed: ${res.status}`);
      const doc = await res.json();
      if (doc.issuer?.replace(/\/+$/, "") !== issuer) {
        throw new Error("OIDC discovery: issuer does not match OIDC_ISSUER");
      }
      return {
        authorizationEndpoint: doc.authorization_endpoint,
        tokenEndpoint: doc.token_endpoint,
        jwks: createRemoteJWKSet(new URL(doc.jwks_uri)),
      };
    })();
    cached.catch(() => metadataCache.delete(issuer));
    metadataCache.set(issuer, cached);
  }
  return cached;
}

/** What the browser must bring back to /api/callback, kept in a short-lived cookie. */
export interface PendingSignIn {
  state: string;
  codeVerifier: string;
  nonce: string;
  returnTo: string;
}

export const redirectUri = (appUrl: string) => `${appUrl}/api/callback`;

/**
 * The owner must have typed their password at the provider within this many
 * seconds: sent as max_age (with prompt=login) and checked against auth_time,
 * so a provider session left open on a shared computer is not enough.
 */
export const OWNER_MAX_AGE_S = 300;
/** Clock difference tolerated between us and the provider. */
const CLOCK_SKEW_S = 60;

export async function beginSignIn(
  oidc: OidcConfig,
  appUrl: string,
  returnTo: string,
): Promise<{ url: URL; pending: PendingSignIn }> {
  const meta = await providerMetadata(oidc.issuer);
  const client = new OAuth2Client(oidc.clientId, oidc.clientSecret, redirectUri(appUrl));
  const pending: PendingSignIn = {
    state: generateState(),
    codeVerifier: generateCodeVerifier(),
    nonce: generateState(),
    returnTo,
  };
  const url = client.createAuthorizationURLWithPKCE(
    meta.authorizationEndpoint,
    pending.state,
    CodeChallengeMethod.S256,
    pending.codeVerifier,
    ["openid", "email", "profile"],
  );
  url.searchParams.set("nonce", pending.nonce);
  url.searchParams.set("prompt", "login");
  url.searchParams.set("max_age", String(OWNER_MAX_AGE_S));
  return { url, pending };
}

export interface OwnerIdentity {
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** A sign-in the provider completed but we refuse; `notice` names what /staff says. */
export class OidcRejected extends Error {
  constructor(message: string, readonly notice: "denied" | "stale" = "denied") {
    super(message);
  }
}

/** auth_time must be there and within max_age (plus skew), and not in the future. */
export function checkAuthTime(authTime: unknown, nowS = Date.now() / 1000): void {
  if (typeof authTime !== "number" || !Number.isFinite(authTime)) {
    throw new OidcRejected("no auth_time in the ID token", "stale");
  }
  if (authTime > nowS + CLOCK_SKEW_S || nowS - authTime > OWNER_MAX_AGE_S + CLOCK_SKEW_S) {
    throw new OidcRejected("authentication at the provider is not recent", "stale");
  }
}

/**
 * Exchanges the code and checks the ID token properly: signature against the
 * provider's keys, issuer, audience, expiry, our nonce, and an auth_time
 * within max_age. Only a verified e-mail listed in OWNER_EMAILS may sign in.
 */
export async function completeSignIn(
  oidc: OidcConfig,
  appUrl: string,
  code: string,
  pending: PendingSignIn,
): Promise<OwnerIdentity> {
  const meta = await providerMetadata(oidc.issuer);
  const client = new OAuth2Client(oidc.clientId, oidc.clientSecret, redirectUri(appUrl));
  const tokens = await client.validateAuthorizationCode(
    meta.tokenEndpoint,
    code,
    pending.codeVerifier,
  );
  const { payload } = await jwtVerify(tokens.idToken(), meta.jwks, {
    issuer: [oidc.issuer, `${oidc.issuer}/`],
    audience: oidc.clientId,
  });
  if (payload.nonce !== pending.nonce) throw new OidcRejected("nonce mismatch");
  checkAuthTime(payload.auth_time);
  const email = typeof payload.email === "string" ? payload.email.trim().toLowerCase() : "";
  // Only an e-mail the provider says it verified: a missing claim is not a yes.
  if (!email || payload.email_verified !== true) {
    throw new OidcRejected("no verified e-mail");
  }
  if (!oidc.ownerEmails.includes(email)) throw new OidcRejected("not an owner e-mail");
  return {
    subject: `${oidc.issuer}#${payload.sub}`,
    email,
    firstName: typeof payload.given_name === "string" ? payload.given_name : "",
    lastName: typeof payload.family_name === "string" ? payload.family_name : "",
  };
}
