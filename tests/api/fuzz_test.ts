// One engine: bad input is refused by the schemas before any statement runs.
import { describe, it } from "node:test";
import { expect } from "expect";
import { type TestApp } from "../helpers/test_app.ts";
import type { RouteEntry, SampleRequest } from "../helpers/route_table.ts";
import { cookieFor, Fixtures, ROUTES } from "../helpers/route_table.ts";
import { ensureDefaultCatalog } from "../../src/catalog/default_catalog.ts";
import { rawRequest } from "../helpers/raw_http.ts";
import { useTestApp } from "../helpers/suite.ts";

// A bounded, seeded fuzz over every route of the route table: each JSON
// field, each query parameter and each id in a path is replaced by hostile
// values (control characters, wrong types, huge strings and numbers, deep
// nesting, bad ids, object-prototype names). Bad input must always be a 4xx
// with a message, never a 5xx. Then the request itself: made-up methods, long
// request lines and thousands of distinct paths (a made-up method must not
// grow the metrics by a series). FUZZ_SEED=n replays a run.

const SEED = Number(Deno.env.get("FUZZ_SEED") ?? 90210);
/** How many hostile values each field and parameter gets, besides a NUL. */
const PER_FIELD = 2;

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(SEED);
const pick = <T>(list: readonly T[], n: number): T[] => {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length) {
    out.push(copy.splice(Math.floor(rng() * copy.length), 1)[0]);
  }
  return out;
};

/** Stands in for a value JSON.stringify cannot write (too deep); replaced in the text. */
const DEEP = "__deep_nesting__";
const deepJson = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

const HOSTILE_VALUES: readonly unknown[] = [
  "\u0001x",
  "tab\tinside",
  "line\nbreak",
  "\u001b[31m",
  "\u007f",
  "\u0085\u009f",
  "\ud800",
  "x".repeat(200_000),
  "😀".repeat(2_000),
  "",
  "   ",
  "constructor",
  "__proto__",
  "toString",
  "not-a-uuid",
  "00000000-0000-0000-0000-000000000000",
  "temp-" + "x".repeat(80),
  "1e400",
  "-0",
  "NaN",
  "Infinity",
  "99999999999999999999",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  1e308,
  -1e308,
  2 ** 53 + 1,
  -1,
  0.5,
  0,
  true,
  false,
  null,
  [],
  {},
  ["a", 1, null],
  { nested: { deeper: ["x"] } },
  JSON.parse('{"__proto__": {"role": "OWNER"}, "constructor": {"prototype": {}}}'),
  Array.from({ length: 20_000 }, () => 0),
  DEEP,
];

/**
 * Dates that do not exist or that no store means: every field and query
 * parameter whose sample is a date (YYYY-MM-DD) gets all of them.
 */
const HOSTILE_DATES: readonly string[] = [
  "2026-02-30",
  "2027-02-29",
  "0000-01-01",
  "9999-12-31",
  "2026-13-01",
  "2026-00-10",
  "99999-01-01",
  "-2026-01-01",
  "2026-1-1",
  "2026-01-01T00:00:00Z",
  "20260101",
];
const isDateSample = (value: unknown) =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);

const WHOLE_BODIES: readonly string[] = [
  "null",
  "[]",
  '"text"',
  "42",
  "{",
  '{"a":',
  "\u0000",
  deepJson(50_000),
  '{"__proto__": {"admin": true}, "constructor": 1, "toString": "x"}',
  JSON.stringify({ "\u0000": "key" }),
];

const HOSTILE_SEGMENTS: readonly string[] = [
  "%00",
  "abc",
  "constructor",
  "__proto__",
  "toString",
  "..%2F..%2Fetc%2Fpasswd",
  "%E2%80%AE",
  "x".repeat(3_000),
  crypto.randomUUID(),
  "00000000-0000-0000-0000-000000000000",
  "1",
  "-1",
  "%F0%9F%98%80",
  "%ZZ",
];

const HOSTILE_QUERY: readonly string[] = [
  "%00",
  "a%01b",
  "%7F",
  "%C2%85",
  "x".repeat(5_000),
  "-1",
  "1e400",
  "99999999999999999999",
  "1.5",
  "constructor",
  "__proto__",
  "%ED%A0%80",
  "%ZZ",
  "",
];

/** Paths to every value in a JSON body: ["options", 0, "items", 0, "sku"], ... */
function leafPaths(value: unknown, prefix: Array<string | number> = []) {
  const out: Array<Array<string | number>> = [];
  if (prefix.length) out.push(prefix);
  if (Array.isArray(value) && value.length) out.push(...leafPaths(value[0], [...prefix, 0]));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) out.push(...leafPaths(v, [...prefix, k]));
  }
  return out;
}

/** Every number at its largest usual value: each valid alone, too much together. */
function maxed(value: unknown): unknown {
  if (typeof value === "number") return 999;
  if (typeof value === "string" && /^\d+(\.\d+)?$/.test(value)) return "999999.99";
  if (Array.isArray(value)) return value.map(maxed);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maxed(v)]));
  }
  return value;
}

const valueAt = (body: unknown, path: Array<string | number>) =>
  path.reduce<unknown>((at, key) => (at as Record<string | number, unknown>)?.[key], body);

function withValue(body: unknown, path: Array<string | number>, value: unknown): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return JSON.stringify(copy).replace(`"${DEEP}"`, deepJson(5_000));
}

interface Attempt {
  entry: RouteEntry;
  method: string;
  /** The request, made from a sample (a fresh one when the body carries a version). */
  make: (sample: SampleRequest) => { path: string; body?: string };
  headers?: Record<string, string>;
  anonymous?: boolean;
  what: string;
}

const split = (path: string) => {
  const [pathname, search = ""] = path.split("?");
  return { pathname, search };
};
const bodyText = (sample: SampleRequest) =>
  sample.body === undefined
    ? undefined
    : typeof sample.body === "string"
    ? sample.body
    : JSON.stringify(sample.body);

function attemptsFor(entry: RouteEntry, sample: SampleRequest): Attempt[] {
  const method = entry.method === "ALL" ? "GET" : entry.method;
  const base = { entry, method, headers: sample.headers };
  const out: Attempt[] = [];
  const body = (what: string, make: (s: SampleRequest) => string) =>
    out.push({ ...base, what, make: (s) => ({ path: s.path, body: make(s) }) });

  // Bodies: each field, arrays filled with their largest values, then the whole body.
  if (sample.body !== undefined && typeof sample.body === "object") {
    for (const field of leafPaths(sample.body)) {
      const dates = isDateSample(valueAt(sample.body, field)) ? HOSTILE_DATES : [];
      for (const value of ["\u0000", ...pick(HOSTILE_VALUES, PER_FIELD), ...dates]) {
        body(
          `${field.join(".")} = ${JSON.stringify(value)?.slice(0, 40)}`,
          (s) => withValue(s.body, field, value),
        );
      }
      // Each item valid, too much together (totals that overflow).
      if (Array.isArray(valueAt(sample.body, field))) {
        body(`${field.join(".")} = 20 × largest values`, (s) => {
          const list = valueAt(s.body, field) as unknown[];
          return withValue(s.body, field, Array.from({ length: 20 }, () => maxed(list[0])));
        });
      }
    }
    for (const whole of pick(WHOLE_BODIES, 4)) body(`body ${whole.slice(0, 40)}`, () => whole);
  }
  const bodyAttempts = out.slice(0, 12);

  // Ids and names in the path: each dynamic segment of the pattern.
  entry.pattern.split("/").forEach((segment, i) => {
    if (!segment.startsWith(":")) return;
    const always = ["%00", "constructor", "__proto__"];
    const others = pick(HOSTILE_SEGMENTS.filter((b) => !always.includes(b)), 3);
    for (const bad of [...always, ...others]) {
      out.push({
        ...base,
        what: `${segment} = ${bad.slice(0, 40)}`,
        make: (s) => {
          const { pathname, search } = split(s.path);
          const parts = pathname.split("/");
          parts[i] = bad;
          return { path: parts.join("/") + (search ? `?${search}` : ""), body: bodyText(s) };
        },
      });
    }
  });

  // Query parameters: each one the route reads, an unknown one, prototype names, repeats.
  const withQuery = (what: string, query: (search: string) => string) =>
    out.push({
      ...base,
      what,
      make: (s) => {
        const { pathname, search } = split(s.path);
        return { path: `${pathname}?${query(search)}`, body: bodyText(s) };
      },
    });
  for (const name of entry.query ?? []) {
    const current = new URLSearchParams(split(sample.path).search).get(name);
    const dates = isDateSample(current) || /^(from|to)$/.test(name) ? HOSTILE_DATES : [];
    for (const bad of ["%00", ...pick(HOSTILE_QUERY, PER_FIELD), ...dates]) {
      withQuery(`?${name}=${bad.slice(0, 40)}`, (search) =>
        [
          ...[...new URLSearchParams(search)].filter(([k]) => k !== name)
            .map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
          `${name}=${bad}`,
        ].join("&"));
    }
  }
  const extras = ["__proto__=1&constructor=2", "q=a&q=%00", "%00=x", "limit=1&limit=abc"];
  for (const extra of pick(extras, 2)) {
    withQuery(`?${extra}`, (search) => `${search ? search + "&" : ""}${extra}`);
  }

  // Public routes are fuzzed signed out as well (sign-in, intake, consent).
  if (entry.access === "public") {
    out.push(...bodyAttempts.map((a) => ({ ...a, anonymous: true })));
  }
  return out;
}

let app: TestApp, fx: Fixtures, owner: string;

/** Calls that end or replace the caller's session get a session of their own. */
const ENDS_SESSION = new Set([
  "/api/staff/login",
  "/api/staff/logout",
  "/api/logout",
  "/api/auth/change-password",
]);

useTestApp(async (started) => {
  ({ app } = started);
  await ensureDefaultCatalog(app.db);
  fx = new Fixtures(app);
  owner = (await cookieFor(app.db, "OWNER"))!;
});

describe(`fuzz (seed ${SEED})`, () => {
  it("no route answers bad input with a 5xx; API errors are JSON with a message", async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const entry of ROUTES) {
      const sample = await entry.request(fx);
      // A body that carries the version it was loaded at is stale after one
      // successful save: such routes get a fresh sample for every attempt.
      const versioned = typeof sample.body === "object" && sample.body !== null &&
        "version" in sample.body;
      for (const attempt of attemptsFor(entry, sample)) {
        const request = attempt.make(versioned ? await entry.request(fx) : sample);
        const headers: Record<string, string> = {
          accept: entry.page ? "text/html" : "application/json",
          ...attempt.headers,
        };
        if (request.body !== undefined) headers["content-type"] ??= "application/json";
        const cookie = attempt.anonymous
          ? undefined
          : ENDS_SESSION.has(entry.pattern)
          ? await cookieFor(app.db, "OWNER")
          : owner;
        if (cookie) headers.cookie = cookie;
        const res = await fetch(app.baseUrl + request.path, {
          method: attempt.method,
          headers,
          body: request.body,
          redirect: "manual",
        });
        const text = await res.text();
        sent++;
        let message: unknown;
        try {
          message = JSON.parse(text)?.message;
        } catch {
          message = undefined;
        }
        const bad = res.status >= 500
          ? `${res.status}`
          : !entry.page && res.status >= 400 && typeof message !== "string"
          ? `${res.status} without a JSON message`
          : undefined;
        if (bad) {
          failures.push(
            `${attempt.method} ${entry.pattern} ${attempt.what}` +
              `${attempt.anonymous ? " (signed out)" : ""}: ${bad} ${text.slice(0, 100)}`,
          );
        }
      }
    }
    expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
    // Bounded, but not trivially small.
    expect(sent).toBeGreaterThan(600);
    console.log(`fuzz: ${sent} requests, seed ${SEED}`);
  });

  it("unknown methods, long request lines and many distinct paths: never a 5xx, the server unchanged", async () => {
    const failures: string[] = [];
    const patterns = ROUTES.map((r) => r.pattern.replace(/:[^/{]+(\{[^}]*\})?/g, "x"));
    const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const word = (n: number) =>
      Array.from({ length: n }, () => letters[Math.floor(rng() * letters.length)]).join("");
    // Made-up methods (a token is any letters), the standard ones no route serves, and odd ones.
    const methods = [
      "TRACE",
      "PROPFIND",
      "MKCOL",
      "BREW",
      "get",
      "Post",
      word(300),
      ...Array.from({ length: 40 }, () => word(1 + Math.floor(rng() * 12))),
    ];
    for (const method of methods) {
      const path = pick(patterns, 1)[0];
      const status = await rawRequest(app.baseUrl, method, path);
      const expected = method === "TRACE" ? 405 : 501;
      if (status !== expected) failures.push(`${method.slice(0, 20)} ${path}: ${status}`);
    }
    // Long request lines: the server refuses them (431, 414 or a closed
    // connection) or answers them, but never with a 5xx.
    for (const length of [8_000, 64_000, 1_000_000]) {
      for (
        const target of [`/${"a".repeat(length)}`, `/api/search?q=${"%41".repeat(length / 3)}`]
      ) {
        const status = await rawRequest(app.baseUrl, "GET", target);
        if (status >= 500) failures.push(`GET ${target.slice(0, 30)}… (${length}): ${status}`);
      }
    }
    // Many distinct paths, signed in and out.
    for (let i = 0; i < 2_000; i++) {
      const base = pick(patterns, 1)[0];
      const path = `${base}/${word(1 + (i % 30))}${i % 3 ? `?${word(3)}=${i}` : ""}`;
      const res = await fetch(app.baseUrl + path, {
        headers: {
          accept: i % 2 ? "text/html" : "application/json",
          ...(i % 4 ? {} : { cookie: owner }),
        },
        redirect: "manual",
      });
      await res.body?.cancel();
      if (res.status >= 500) failures.push(`GET ${path}: ${res.status}`);
    }
    expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
    const health = await fetch(`${app.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    await health.body?.cancel();
  });
});
