import { isTrustedProxyEntry } from "../http/client_address.ts";
import { join } from "node:path";
import { ensurePrivateDir, restrictFile } from "./private_files.ts";

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
  /** "json": one JSON object per line (default); "text": one readable line per event. */
  logFormat: "json" | "text";
  /** Bearer token for /metrics; unset turns /metrics off (404). */
  metricsToken: string | undefined;
  /** Pause between two passes of this process's outbox worker. */
  outboxPollMs: number;
  /** Where `deno task backup` and the nightly backup write when no file is named. */
  backupDir: string;
  /** The longest one backup may take before it is abandoned as failed. */
  backupTimeoutMs: number;
  /**
   * How long PostgreSQL lets one statement of a request run before it cancels
   * it (DB_STATEMENT_TIMEOUT_MS), and one of a search (DB_SEARCH_TIMEOUT_MS);
   * 0 is no limit. A server only: PGlite runs one statement at a time.
   */
  statementLimits: { ordinaryMs: number; searchMs: number };
  /**
   * Reverse proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES):
   * addresses, CIDR ranges or host names. Empty: the socket's peer is the client.
   */
  trustedProxies: string[];
  /**
   * The PDF renderers: how many render at once, how many jobs may wait, the
   * time limit per render, and how long one may sit idle before it is ended.
   */
  pdf: { workers: number; queue: number; timeoutMs: number; idleMs: number; perCaller: number };
  /**
   * How long the mail server may take to accept a connection and to greet
   * (SMTP_TIMEOUT_MS); a failed test e-mail is answered a fixed time after it.
   */
  smtpTimeoutMs: number;
}

type Env = Record<string, string | undefined>;

/**
 * Reads the environment once at start-up. The secret key is generated on
 * first start and kept in DATA_DIR, so sessions of encrypted settings survive
 * restarts without the operator having to invent one. `createSecretKey: false`
 * (a command that encrypts nothing, such as restore) writes nothing: a missing
 * key is then a throwaway one, and DATA_DIR is left as it was.
 */
export async function loadConfig(
  env: Env = Deno.env.toObject(),
  options: { createSecretKey?: boolean } = {},
): Promise<Config> {
  const port = Number(env.PORT || 8000);
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
  // Empty counts as unset: compose passes `${APP_URL:-}` when .env has none.
  const appUrl = (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, "");
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
    : options.createSecretKey === false
    ? await loadSecret(dataDir) ?? crypto.getRandomValues(new Uint8Array(32))
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

  const logFormat = env.LOG_FORMAT || "json";
  if (logFormat !== "json" && logFormat !== "text") {
    throw new Error(`LOG_FORMAT must be "json" or "text", got "${logFormat}"`);
  }
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16) {
    // Scrapes cross the network in the clear more often than not: no guessable tokens.
    throw new Error("METRICS_TOKEN must be at least 16 characters");
  }
  const outboxPollMs = Number(env.OUTBOX_POLL_MS || 30_000);
  if (!Number.isInteger(outboxPollMs) || outboxPollMs < 50) {
    throw new Error(`OUTBOX_POLL_MS must be a whole number of milliseconds (50 or more)`);
  }
  const trustedProxies = (env.TRUSTED_PROXIES ?? "").split(/[\s,]+/).filter((e) => e !== "");
  const wrongProxy = trustedProxies.find((e) => !isTrustedProxyEntry(e));
  if (wrongProxy !== undefined) {
    throw new Error(
      `TRUSTED_PROXIES must list addresses, CIDR ranges or host names separated by commas, ` +
        `got "${wrongProxy.slice(0, 80)}"`,
    );
  }
  const pdf = {
    workers: intSetting(env, "PDF_WORKERS", 1, 1, 16),
    queue: intSetting(env, "PDF_QUEUE", 8, 0, 1000),
    timeoutMs: intSetting(env, "PDF_TIMEOUT_MS", 30_000, 1, 3_600_000),
    idleMs: intSetting(env, "PDF_IDLE_MS", 300_000, 1, 86_400_000),
    perCaller: intSetting(env, "PDF_PER_USER", 2, 1, 1000),
  };

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
    logFormat,
    metricsToken,
    outboxPollMs,
    backupDir: env.BACKUP_DIR || "./backups",
    backupTimeoutMs: intSetting(env, "BACKUP_TIMEOUT_MS", 1_800_000, 100, 86_400_000),
    trustedProxies,
    statementLimits: {
      ordinaryMs: intSetting(env, "DB_STATEMENT_TIMEOUT_MS", 15_000, 0, 3_600_000),
      searchMs: intSetting(env, "DB_SEARCH_TIMEOUT_MS", 5_000, 0, 3_600_000),
    },
    pdf,
    smtpTimeoutMs: intSetting(env, "SMTP_TIMEOUT_MS", 10_000, 100, 120_000),
  };
}

function intSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

async function deriveKey(secret: string): Promise<Uint8Array> {
  // Any operator-chosen string becomes a uniform 32-byte key.
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return new Uint8Array(digest);
}

/** The key in DATA_DIR; undefined when there is none yet. */
async function loadSecret(dataDir: string): Promise<Uint8Array | undefined> {
  const path = join(dataDir, "secret.key");
  try {
    const hex = (await Deno.readTextFile(path)).trim();
    if (!/^[0-9a-f]{64}$/.test(hex)) throw new Error(`${path} is not a 64-character hex key`);
    // A key written by an older version (or copied in) may be readable by others.
    await restrictFile(path);
    return hexToBytes(hex);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    return undefined;
  }
}

async function loadOrCreateSecret(dataDir: string): Promise<Uint8Array> {
  const existing = await loadSecret(dataDir);
  if (existing) return existing;
  const path = join(dataDir, "secret.key");
  await ensurePrivateDir(dataDir);
  const key = crypto.getRandomValues(new Uint8Array(32));
  const hex = Array.from(key, (b) => b.toString(16).padStart(2, "0")).join("");
  // Written whole under a private name, then linked into place: two app
  // processes starting together on one data volume cannot both create a key,
  // and neither can read a half-written one. The loser uses the winner's.
  const tmp = `${path}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(tmp, hex + "\n", { mode: 0o600, createNew: true });
  try {
    await Deno.link(tmp, path);
  } catch (err) {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    return await loadOrCreateSecret(dataDir);
  } finally {
    await Deno.remove(tmp);
  }
  return key;
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
