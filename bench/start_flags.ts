// The `deno run` flags of `deno task start` (V8 flags and permissions), read
// from deno.json: the bench starts the server with exactly these, and
// tests/unit/deploy_test.ts holds the Docker image's CMD to them, so the
// three ways the server runs cannot drift apart.

/**
 * The flags between `deno run` and `main.ts` in the start task of deno.json's text
 * (or `cli/start.ts`, which installs and builds what a first start needs, then runs
 * main.ts in its own process, with these flags).
 */
export function startRunFlags(denoJson: string): string[] {
  const start: unknown = JSON.parse(denoJson).tasks?.start;
  const run = typeof start === "string"
    ? /(?:^|&&\s*)deno run (.*?)\s*(?:main|cli\/start)\.ts$/.exec(start)
    : null;
  if (!run) {
    throw new Error(
      'deno.json: the start task does not end in "deno run … main.ts" (or cli/start.ts)',
    );
  }
  return run[1].split(/\s+/).filter(Boolean);
}
