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
});
