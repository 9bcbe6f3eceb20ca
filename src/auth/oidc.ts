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
  return { url, pending };
}

export interface OwnerIdentity {
  subject: string;
  email: string;
  firstName: string;
  lastName: string;
}

export class OidcRejected extends Error {}

/**
 * Exchanges the code and checks the ID token properly: signature against the
 * provider's keys, issuer, audience, expiry and our nonce. Only a verified
 * e-mail listed in OWNER_EMAILS may sign in.
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
  const email = typeof payload.email === "string" ? payload.email.trim().toLowerCase() : "";
  if (!email || payload.email_verified === false) {
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
