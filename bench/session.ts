// The bench's signed-in owner: one session token, made here and written into
// each store by prepare() (fill.ts), sent by every request the bench makes.
import { generateSessionToken } from "../src/auth/session.ts";

export const token = generateSessionToken();
export const cookie = `lensdesk_session=${token}`;
export const headers = { Cookie: cookie };

/** A signed-in request that must answer 2xx: its body. */
export async function expectOk(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, {
    ...init,
    headers: { cookie, origin: base, ...init.headers },
  });
  const body = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
  return body;
}
