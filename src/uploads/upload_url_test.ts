import { describe, it } from "node:test";
import { expect } from "expect";
import { isUploadPut, signUploadUrl, verifyUploadUrl } from "./upload_url.ts";

const key = new Uint8Array(32).fill(7);
const id = "0b8f5c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e";
const origins = ["http://store.test"];

describe("upload URLs", () => {
  it("verify as signed, absolute on our origin or relative", () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const { url, signature } = signUploadUrl(key, id, expiresAt);
    expect(verifyUploadUrl(key, url, origins)).toEqual({ id, signature, expired: false });
    expect(verifyUploadUrl(key, `http://store.test${url}`, origins)?.id).toBe(id);
    expect(verifyUploadUrl(key, `http://elsewhere.test${url}`, origins)).toBeUndefined();
  });

  it("say when they are past their expiry", () => {
    const { url } = signUploadUrl(key, id, new Date(Date.now() - 1000));
    expect(verifyUploadUrl(key, url, origins)?.expired).toBe(true);
  });

  it("fail on any change, or under another key", () => {
    const { url } = signUploadUrl(key, id, new Date(Date.now() + 60_000));
    const u = new URL(url, "http://store.test");
    const expires = Number(u.searchParams.get("expires"));
    const sig = u.searchParams.get("signature")!;
    const flipped = (sig[0] === "A" ? "B" : "A") + sig.slice(1);
    const changed = [
      url.replace(`expires=${expires}`, `expires=${expires + 1}`),
      url.replace(id, id.replace(/.$/, "f")),
      url.replace(sig, flipped),
      url.replace(/&signature=.*/, ""),
      url.replace("/api/objects/upload/", "/api/objects/uploads/"),
    ];
    for (const bad of changed) expect(verifyUploadUrl(key, bad, origins)).toBeUndefined();
    expect(verifyUploadUrl(new Uint8Array(32).fill(8), url, origins)).toBeUndefined();
  });

  it("name the route whose body limit is its own", () => {
    expect(isUploadPut("PUT", `/api/objects/upload/${id}`)).toBe(true);
    expect(isUploadPut("POST", `/api/objects/upload/${id}`)).toBe(false);
    expect(isUploadPut("PUT", "/api/objects/upload/../admin/settings")).toBe(false);
    expect(isUploadPut("PUT", "/api/admin/settings")).toBe(false);
  });
});
