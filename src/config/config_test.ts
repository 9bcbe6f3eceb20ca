import { describe, it } from "node:test";
import { expect } from "expect";
import { loadConfig } from "./config.ts";

describe("loadConfig", () => {
  it("defaults to port 8000 on loopback and the embedded database", async () => {
    const c = await loadConfig({ DATABASE_URL: "memory://" });
    expect(c.port).toBe(8000);
    expect(c.host).toBe("127.0.0.1");
    expect(c.appUrl).toBe("http://localhost:8000");
    expect(c.secureCookies).toBe(false);
    expect(c.secretKey.length).toBe(32);
    expect(c.oidc).toBeUndefined();
  });

  it("uses secure cookies behind an https APP_URL", async () => {
    const c = await loadConfig({ DATABASE_URL: "memory://", APP_URL: "https://shop.example/" });
    expect(c.appUrl).toBe("https://shop.example");
    expect(c.secureCookies).toBe(true);
  });

  it("rejects a database URL it cannot use and a bad port", async () => {
    await expect(loadConfig({ DATABASE_URL: "mysql://x" })).rejects.toThrow(/DATABASE_URL/);
    await expect(loadConfig({ DATABASE_URL: "memory://", PORT: "abc" })).rejects.toThrow(/PORT/);
  });

  it("generates the secret key once and keeps it in DATA_DIR", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const a = await loadConfig({ DATA_DIR: dir });
      const b = await loadConfig({ DATA_DIR: dir });
      expect(a.secretKey).toEqual(b.secretKey);
      expect((await Deno.stat(`${dir}/secret.key`)).mode! & 0o777).toBe(0o600);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("with createSecretKey: false writes nothing, and still reads a key that is there", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const missing = `${dir}/not-yet/data`;
      const a = await loadConfig({ DATA_DIR: missing }, { createSecretKey: false });
      expect(a.secretKey.length).toBe(32);
      expect([...Deno.readDirSync(dir)]).toEqual([]);
      const kept = await loadConfig({ DATA_DIR: dir });
      const b = await loadConfig({ DATA_DIR: dir }, { createSecretKey: false });
      expect(b.secretKey).toEqual(kept.secretKey);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("treats empty values as unset, as compose passes ${VAR:-} when .env has none", async () => {
    const c = await loadConfig({
      DATABASE_URL: "memory://",
      PORT: "8123",
      APP_URL: "",
      LOG_FORMAT: "",
      METRICS_TOKEN: "",
      OUTBOX_POLL_MS: "",
      BACKUP_DIR: "",
    });
    expect(c.appUrl).toBe("http://localhost:8123");
    expect(c.logFormat).toBe("json");
    expect(c.metricsToken).toBeUndefined();
    expect(c.outboxPollMs).toBe(30_000);
    expect(c.backupDir).toBe("./backups");
  });

  it("checks the operations settings", async () => {
    const base = { DATABASE_URL: "memory://" };
    await expect(loadConfig({ ...base, LOG_FORMAT: "xml" })).rejects.toThrow(/LOG_FORMAT/);
    await expect(loadConfig({ ...base, METRICS_TOKEN: "short" })).rejects.toThrow(/METRICS_TOKEN/);
    await expect(loadConfig({ ...base, OUTBOX_POLL_MS: "fast" })).rejects.toThrow(/OUTBOX_POLL_MS/);
    const c = await loadConfig({
      ...base,
      LOG_FORMAT: "text",
      METRICS_TOKEN: "0123456789abcdef",
      OUTBOX_POLL_MS: "250",
    });
    expect([c.logFormat, c.metricsToken, c.outboxPollMs]).toEqual([
      "text",
      "0123456789abcdef",
      250,
    ]);
  });

  it("gives every process starting together on one DATA_DIR the same secret key", async () => {
    const dir = await Deno.makeTempDir();
    try {
      const configs = await Promise.all(
        Array.from({ length: 8 }, () => loadConfig({ DATA_DIR: dir })),
      );
      for (const c of configs) expect(c.secretKey).toEqual(configs[0].secretKey);
      expect([...Deno.readDirSync(dir)].map((e) => e.name)).toEqual(["secret.key"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
