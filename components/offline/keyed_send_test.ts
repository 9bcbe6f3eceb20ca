import { afterEach, describe, it } from "node:test";
import { expect } from "expect";
import { keyedRequest, sendKeyed } from "./keyed_send.ts";

// Which answers leave a submit queued (sent again later) and which are final.

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

let seen: Request[] = [];
function answer(make: () => Response | Promise<Response>) {
  seen = [];
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(new Request(new URL(String(input), "http://tablet.local"), init));
    return Promise.resolve().then(make);
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

describe("sendKeyed", () => {
  const request = keyedRequest("POST", "/api/clients", { firstName: "Ada" });

  it("sends the body as first serialized, with its Idempotency-Key", async () => {
    answer(() => json(201, { client: { id: "c1" } }));
    const result = await sendKeyed(request);
    expect(result).toEqual({ sent: true, value: { client: { id: "c1" } } });
    expect(seen[0].headers.get("idempotency-key")).toBe(request.key);
    expect(request.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await seen[0].text()).toBe('{"firstName":"Ada"}');
  });

  it("keeps it queued when no answer comes", async () => {
    answer(() => {
      throw new TypeError("Failed to fetch");
    });
    expect(await sendKeyed(request)).toEqual({ sent: false, again: true });
  });

  it("keeps it queued on a 502, 503 or 504, and on any answer with Retry-After", async () => {
    for (const status of [502, 503, 504]) {
      answer(() => new Response("", { status }));
      expect(await sendKeyed(request)).toEqual({ sent: false, again: true });
    }
    answer(() => json(429, { message: "Too many" }, { "Retry-After": "30" }));
    expect(await sendKeyed(request)).toEqual({ sent: false, again: true });
    answer(() => json(409, { message: "still being processed" }, { "Retry-After": "1" }));
    expect(await sendKeyed(request)).toEqual({ sent: false, again: true });
  });

  it("keeps it queued when the answer is cut off midway", async () => {
    answer(() => new Response('{"client":', { status: 201 }));
    expect(await sendKeyed(request)).toEqual({ sent: false, again: true });
  });

  it("ends on a refusal, with the server's message and fields; a 500 too", async () => {
    answer(() => json(400, { message: "Invalid input", errors: { zip: "Bad ZIP" } }));
    const refused = await sendKeyed(request);
    expect(refused.sent).toBe(false);
    if (refused.sent || refused.again) throw new Error("expected a refusal");
    expect(refused.error.status).toBe(400);
    expect(refused.error.detail).toBe("Invalid input");
    expect(refused.error.fields).toEqual({ zip: "Bad ZIP" });
    answer(() => new Response("", { status: 500 }));
    const failed = await sendKeyed(request);
    expect(failed).toMatchObject({ sent: false, again: false });
  });
});
