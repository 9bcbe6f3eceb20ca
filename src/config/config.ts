import { join } from "node:path";

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  appUrl: string;
  /** 32 raw bytes; encrypts stored SMTP secrets and signs upload URLs. */
  secretKey: Uint8Array;
  secureCookies: boolean;
  owner: { username?: string; password?: string; email?: string };
  oidc?: {
    issuer: string;
    clientId: string;
    clientSecret: string;
    ownerEmails: string[];
  };
  /** Largest JSON body accepted by the API, in bytes. */
  maxJsonBytes: number;
  logRequests: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * Reads the environment once at start-up. The secret key is generated on
 * first start and kept in DATA_DIR, so sessions of encrypted settings survive
 * restarts without the operator having to invent one.
 */
export async function loadConfig(env: Env = Deno.env.toObject()): Promise<Config> {
  const port = Number(env.PORT ?? 8000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  }
  const host = env.HOST ?? "127.0.0.1";
  const dataDir = env.DATA_DIR ?? "./data";
  const databaseUrl = env.DATABASE_URL || undefined;
  if (
    databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl) &&
    databaseUrl !== "memory://"
  ) {
    throw new Error("DATABASE_URL must be a postgres:// URL or memory://");
  }
  const appUrl = (env.APP_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  try {
    new URL(appUrl);
  } catch {
    throw new Error(`APP_URL must be an absolute URL, got "${appUrl}"`);
  }
  const inMemory = databaseUrl === "memory://";
  const secretKey = env.SECRET_KEY
    ? await deriveKey(env.SECRET_KEY)
    : inMemory
    ? crypto.getRandomValues(new Uint8Array(32))
    : await loadOrCreateSecret(dataDir);

  const oidc = env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET
    ? {
      issuer: env.OIDC_ISSUER.replace(/\/+$/, ""),
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      ownerEmails: (env.OWNER_EMAILS ?? "").split(",").map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    }
    : undefined;

  return {
    port,
    host,
    databaseUrl,
    dataDir,
    appUrl,
    secretKey,
    secureCookies: appUrl.startsWith("https://"),
    owner: {
      username: env.OWNER_USERNAME || undefined,
      password: env.OWNER_PASSWORD || undefined,
      email: env.OWNER_EMAIL || undefined,
    },
    oidc,
    maxJsonBytes: 1024 * 1024,
    logRequests: env.LOG_REQUESTS !== "0",
  };
}

async function deriveKey(secret: string): Promise<Uint8Array> {
  // Any operator-chosen string becomes a uniform 32-byte key.
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return new Uint8Array(digest);
}

async function loadOrCreateSecret(dataDir: string): Promise<Uint8Array> {
  const path = join(dataDir, "secret.key");
  try {
    const hex = (await Deno.readTextFile(path)).trim();
    if (/^[0-9a-f]{64}$/.test(hex)) return hexToBytes(hex);
    throw new Error(`${path} is not a 64-character hex key`);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const key = crypto.getRandomValues(new Uint8Array(32));
  const hex = Array.from(key, (b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.writeTextFile(path, hex + "\n", { mode: 0o600, createNew: true });
  return key;
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
