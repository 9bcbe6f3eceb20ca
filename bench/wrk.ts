// Load from the Debian `wrk` (a maintained C load generator): each run
// reports its throughput and latency percentiles as one JSON line printed by
// a Lua `done` hook, so nothing is parsed out of wrk's human-readable text.

export const WRK = Deno.env.get("WRK_PATH") ?? "/usr/bin/wrk";

export interface WrkResult {
  requests: number;
  seconds: number;
  rps: number;
  p50ms: number;
  p95ms: number;
  /** Socket errors and non-2xx/3xx answers: any of them makes the figure worthless. */
  errors: number;
}

const DONE = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\\nWRK_JSON {"requests":%d,"duration_us":%d,"errors":%d,"p50_us":%d,"p95_us":%d}\\n',
    summary.requests, summary.duration, e.connect + e.read + e.write + e.timeout + e.status,
    latency:percentile(50), latency:percentile(95)))
end
`;

/*
 * The builder save: each wrk thread has one connection and one quote of its
 * own, and sends the version the last save answered with, so every request
 * is a real save (a stale version would be a cheap 409). The quote ids,
 * bodies (with __VERSION__ where the version goes) and first versions come in
 * environment variables BENCH_SAVE_{ID,BODY,VERSION}_<thread>.
 */
const SAVE = `
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("slot", threads)
end
function init(args)
  qid = os.getenv("BENCH_SAVE_ID_" .. slot)
  template = os.getenv("BENCH_SAVE_BODY_" .. slot)
  version = tonumber(os.getenv("BENCH_SAVE_VERSION_" .. slot))
  cookie = os.getenv("BENCH_COOKIE")
  origin = os.getenv("BENCH_ORIGIN")
end
function request()
  local body = (string.gsub(template, "__VERSION__", tostring(version)))
  return wrk.format("PUT", "/api/quotes/" .. qid, {
    ["Cookie"] = cookie, ["Origin"] = origin, ["Content-Type"] = "application/json",
    ["Content-Length"] = tostring(#body),
  }, body)
end
function response(status, headers, body)
  if status == 200 then version = version + 1 end
end
`;

// Each script is written once and its path shared: runs started together
// (bench --quick) would otherwise rewrite a file another wrk is reading, and
// a wrk that read it truncated has no done hook and prints no figures.
const scripts = new Map<string, Promise<string>>();
let scriptDir: Promise<string> | undefined;
function script(name: string, text: string): Promise<string> {
  let path = scripts.get(name);
  if (!path) {
    scriptDir ??= Deno.makeTempDir({ prefix: "lensdesk-wrk-" });
    path = scriptDir.then(async (dir) => {
      const file = `${dir}/${name}.lua`;
      await Deno.writeTextFile(file, text);
      return file;
    });
    scripts.set(name, path);
  }
  return path;
}

export async function runWrk(
  url: string,
  options: {
    connections: number;
    threads: number;
    seconds: number;
    headers?: Record<string, string>;
    /** "save": the builder-save script above instead of a GET. */
    kind?: "get" | "save";
    env?: Record<string, string>;
  },
): Promise<WrkResult> {
  const lua = options.kind === "save"
    ? await script("save", SAVE + DONE)
    : await script("get", DONE);
  const args = [
    `-t${options.threads}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--timeout",
    "10s",
    "-s",
    lua,
    ...Object.entries(options.headers ?? {}).flatMap(([k, v]) => ["-H", `${k}: ${v}`]),
    url,
  ];
  const out = await new Deno.Command(WRK, { args, env: options.env, stderr: "piped" }).output();
  const text = new TextDecoder().decode(out.stdout);
  const line = text.split("\n").find((l) => l.startsWith("WRK_JSON "));
  if (!out.success || !line) {
    throw new Error(`wrk failed on ${url}: ${text}${new TextDecoder().decode(out.stderr)}`);
  }
  const r = JSON.parse(line.slice("WRK_JSON ".length));
  const seconds = r.duration_us / 1e6;
  return {
    requests: r.requests,
    seconds,
    rps: r.requests / seconds,
    p50ms: r.p50_us / 1000,
    p95ms: r.p95_us / 1000,
    errors: r.errors,
  };
}

export async function removeWrkScripts() {
  if (!scriptDir) return;
  const dir = await scriptDir;
  scriptDir = undefined;
  scripts.clear();
  await Deno.remove(dir, { recursive: true });
}
