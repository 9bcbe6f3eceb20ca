// One engine: `deno task start` runs on PGlite in a DATA_DIR of its own, main.ts on a database
// of its own, whichever engine the run is on: a second run would repeat the same starts.
// `deno task start` as a store's first start: it installs the npm packages the
// app runs and none of the test-only ones, says what it is doing while it
// builds the bundle and makes the database, and once it listens says where to
// sign in. Run on a copy of the project without node_modules, with the
// machine's Deno cache (no download), as a fresh clone would be.
import { describe, it } from "node:test";
import { expect } from "expect";
import { join } from "node:path";
import { type AppProcess, projectRoot, startAppProcess } from "../helpers/process.ts";
import { createMigratedTestDatabase } from "../helpers/database.ts";
import { BROWSER_ENTRIES, SERVER_ENTRIES } from "../../src/assets/entry_points.ts";
import { childPidsOf } from "../../bench/proc.ts";

/** A run that outlives this is killed, so a hang fails the test instead of stalling the suite. */
const START_LIMIT_MS = 240_000;

/** The Dockerfile's list of deno.json imports the image leaves out: the test-only packages. */
async function testOnlyImports(): Promise<string[]> {
  const dockerfile = await Deno.readTextFile(join(projectRoot, "Dockerfile"));
  const list = /^ARG TEST_ONLY_IMPORTS="([^"]*)"/m.exec(dockerfile)![1].split(/\s+/);
  // Type packages are code for `deno check` only; the local start may fetch them with the
  // modules that name them.
  return list.filter((name) => name && !name.startsWith("@types/"));
}

/** Every process under `pid`, deepest first. */
async function descendantsOf(pid: number): Promise<number[]> {
  const out: number[] = [];
  for (const child of await childPidsOf(pid)) out.push(...await descendantsOf(child), child);
  return out;
}

/** The project's own files (tracked, and new ones not ignored) copied to `to`. */
async function copyProject(to: string) {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
    cwd: projectRoot,
    stdout: "piped",
  }).output();
  for (const file of new TextDecoder().decode(out.stdout).split("\0").filter(Boolean)) {
    const from = join(projectRoot, file);
    if (!(await Deno.lstat(from).then((s) => s.isFile, () => false))) continue;
    await Deno.mkdir(join(to, file, ".."), { recursive: true });
    await Deno.copyFile(from, join(to, file));
  }
}

/** The ready line, printed as the app starts listening (given 10 s more, not forever). */
async function readyLine(app: AppProcess): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      app.waitForLine((l) => l.startsWith("Lensdesk is ready")),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no ready line after listening:\n${app.seen.join("\n")}`)),
          10_000,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("the first start", () => {
  it("once listening, prints one line with the address to sign in at", async () => {
    // A database of its own (the run's server's template, else PGlite in memory): what is
    // printed once listening does not change with the engine.
    const database = await createMigratedTestDatabase();
    try {
      const app = await startAppProcess({ DATABASE_URL: database.url });
      try {
        const line = await readyLine(app);
        const port = new URL(app.baseUrl).port;
        expect(line).toBe(`Lensdesk is ready: sign in at http://localhost:${port}/staff`);
        const page = await fetch(`${app.baseUrl}/staff`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("Staff Portal");
      } finally {
        await app.kill();
      }
      // Behind a proxy, at the address people use.
      const proxied = await startAppProcess({
        DATABASE_URL: database.url,
        APP_URL: "https://optics.example.com",
      });
      try {
        expect(await readyLine(proxied)).toBe(
          "Lensdesk is ready: sign in at https://optics.example.com/staff",
        );
      } finally {
        await proxied.kill();
      }
    } finally {
      await database.drop();
    }
  });

  it("the build task installs the packages of the bundle's entries and its builder", async () => {
    // (deploy_test holds the app's module graphs to the test-only list; this, the task to
    // the entries the builder bundles.)
    const tasks = JSON.parse(await Deno.readTextFile(join(projectRoot, "deno.json"))).tasks;
    const install =
      /^deno install --quiet --entrypoint ([^&]*) && deno run .* src\/assets\/build\.ts$/
        .exec(tasks.build);
    expect(install?.[1].trim().split(/\s+/).sort()).toEqual(
      ["src/assets/build.ts", ...BROWSER_ENTRIES.map((e) => `islands/${e}`)].sort(),
    );
    expect(SERVER_ENTRIES).toContain("src/assets/build.ts");
    expect(tasks.start).toMatch(/ cli\/start\.ts$/);
  });

  it(
    "on a fresh clone: installs only the app's packages, says what it does, and where to sign in",
    async () => {
      const clone = await Deno.makeTempDir({ prefix: "lensdesk-first-start-" });
      let child: Deno.ChildProcess | undefined;
      let drained: Promise<unknown> | undefined;
      try {
        await copyProject(clone);
        child = new Deno.Command(Deno.execPath(), {
          args: ["task", "start"],
          cwd: clone,
          env: { PORT: "0", DATA_DIR: join(clone, "data"), NO_COLOR: "1" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const text = { stdout: "", stderr: "" };
        const drain = async (stream: ReadableStream<Uint8Array>, key: "stdout" | "stderr") => {
          const decoder = new TextDecoder();
          for await (const chunk of stream) text[key] += decoder.decode(chunk, { stream: true });
        };
        drained = Promise.all([drain(child.stdout, "stdout"), drain(child.stderr, "stderr")]);
        const deadline = Date.now() + START_LIMIT_MS;
        const ended = child.status.then(() => true);
        while (!text.stdout.includes("Lensdesk is ready")) {
          const done = await Promise.race([
            ended,
            new Promise<false>((r) => setTimeout(() => r(false), 250)),
          ]);
          if (done || Date.now() > deadline) {
            throw new Error(`no ready line:\n${text.stdout}\n${text.stderr}`);
          }
        }
        await new Promise((r) => setTimeout(r, 200));
        const stdout = text.stdout.trim().split("\n");
        const stderr = text.stderr.trim().split("\n").filter(Boolean);

        // (a) No line per package, and none of the test-only packages installed.
        expect(stderr.filter((l) => /^(Download|Initialize) /.test(l))).toEqual([]);
        const installed = [...Deno.readDirSync(join(clone, "node_modules", ".deno"))]
          .map((e) => e.name.replace(/@[^@]*$/, "").replace("+", "/"));
        expect(installed.length).toBeGreaterThan(50);
        const testOnly = await testOnlyImports();
        expect(installed.filter((name) => testOnly.includes(name))).toEqual([]);

        // (b) A line before each slow step, in order; (c) the address to sign in at.
        const at = (pattern: RegExp) => {
          const i = stdout.findIndex((l) => pattern.test(l));
          expect({ pattern: String(pattern), found: i >= 0, stdout }).toMatchObject({
            found: true,
          });
          return i;
        };
        const steps = [
          at(/^Lensdesk: installing the npm packages the app runs \(first start only/),
          at(/^Building the browser bundle\.\.\.$/),
          at(/^Built browser bundle: \d+ islands/),
          at(new RegExp(`^Lensdesk: creating the database in ${clone}/data and its tables`)),
          at(/"msg":"migrations applied"/),
          at(/^Lensdesk is ready: sign in at http:\/\/localhost:\d+\/staff$/),
        ];
        expect(steps).toEqual([...steps].sort((a, b) => a - b));
        // Short: the steps, the database's few log lines and the first owner's password.
        expect(stdout.length + stderr.length).toBeLessThan(30);
      } finally {
        if (child) {
          for (const pid of await descendantsOf(child.pid)) {
            try {
              Deno.kill(pid, "SIGKILL");
            } catch {
              // already gone
            }
          }
          try {
            child.kill("SIGKILL");
          } catch {
            // already gone
          }
          await child.status;
          await drained;
        }
        await Deno.remove(clone, { recursive: true });
      }
    },
  );
});
