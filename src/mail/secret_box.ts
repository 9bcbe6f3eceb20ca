import { decodeBase64, encodeBase64 } from "@oslojs/encoding";

// AES-256-GCM with the app's SECRET_KEY: the SMTP password is stored only in
// this form, so a database dump alone does not reveal it.

async function aesKey(secretKey: Uint8Array): Promise<CryptoKey> {
  return await crypto.subtle.importKey("raw", new Uint8Array(secretKey), "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
}

export async function encryptSecret(secretKey: Uint8Array, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv },
      await aesKey(secretKey),
      new TextEncoder().encode(plaintext),
    ),
  );
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return `v1:${encodeBase64(out)}`;
}

/** The plaintext, or undefined when the value was sealed with another key or is damaged. */
export async function decryptSecret(
  secretKey: Uint8Array,
  token: string,
): Promise<string | undefined> {
  if (!token.startsWith("v1:")) return undefined;
  try {
    const data = decodeBase64(token.slice(3));
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: data.slice(0, 12) },
      await aesKey(secretKey),
      data.slice(12),
    );
    return new TextDecoder().decode(plain);
  } catch {
    return undefined;
  }
}
