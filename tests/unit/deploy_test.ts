// compose.yaml, the Dockerfile and .dockerignore, checked without a Docker
// engine: what every Compose implementation can read, health checks that
// follow PORT, and an image without the test-only packages.
import { describe, it } from "node:test";
import { expect } from "expect";
import { parse } from "yaml";
import { projectRoot } from "../helpers/process.ts";
import { startRunFlags } from "../../bench/start_flags.ts";
import { rendererArgs } from "../../src/pdf/renderer_process.ts";
import { importNames, pruneConfig } from "../../src/assets/prune_imports.ts";

const read = (name: string) => Deno.readTextFileSync(`${projectRoot}${name}`);
const compose = read("compose.yaml");
const dockerfile = read("Dockerfile");

interface Service {
  env_file?: string;
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  profiles?: string[];
  command?: string[];
}

describe("compose.yaml", () => {
  const doc = parse(compose, { merge: true }) as { services: Record<string, Service> };

  it("parses, with the app, its database, a backup profile and a replicas profile", () => {
    expect(Object.keys(doc.services).sort()).toEqual(["app", "app-2", "backup", "caddy", "db"]);
    expect(doc.services.backup.profiles).toEqual(["backup"]);
    expect(doc.services.backup.command).toEqual(["deno", "task", "backup", "--nightly"]);
    expect(doc.services["app-2"].profiles).toEqual(["replicas"]);
    expect(doc.services.caddy.profiles).toEqual(["replicas"]);
  });

  it("uses only the interpolation every Compose implementation reads: no nested or empty defaults", () => {
    // Each `$` is either an escaped `$$` or one `${NAME}`, `${NAME:-default}` or
    // `${NAME:?message}` whose default holds no further `$` and is not empty
    // (podman-compose 1.0.3 leaves `${NAME:-}` as it is).
    const strings: string[] = [];
    const walk = (v: unknown) => {
      if (typeof v === "string") strings.push(v);
      else if (v && typeof v === "object") Object.values(v).forEach(walk);
    };
    walk(doc);
    expect(strings.filter((s) => s.includes("${")).length).toBeGreaterThan(10);
    const bad = strings.filter((s) =>
      s.replaceAll("$$", "").replaceAll(/\$\{[A-Z_][A-Z0-9_]*(?::?[-?][^}$]+)?\}/g, "")
        .includes("$")
    );
    expect(bad).toEqual([]);
    // The cases spelled out.
    expect(compose).not.toMatch(/\$\{[^}]*\$\{/);
    expect(compose).not.toMatch(/\$\{[A-Z_]+:?-\}/);
  });

  it("hands .env to the app as it is, and checks health with one shell line", () => {
    // Optional settings come from .env itself: passing them through
    // `environment` needs an empty default, which podman-compose 1.0.3 breaks.
    for (const name of ["app", "app-2", "backup"]) {
      expect(doc.services[name].env_file).toBe(".env");
    }
    expect(Object.keys(doc.services.app.environment!).sort()).toEqual(
      ["DATABASE_URL", "LOG_FORMAT", "PORT", "TZ"],
    );
    // podman-compose 1.0.3 splits an exec-form argument with spaces into words.
    expect(doc.services.app.healthcheck!.test![0]).toBe("CMD-SHELL");
    expect(doc.services.app.healthcheck!.test).toHaveLength(2);
  });

  it("refuses to start without POSTGRES_PASSWORD instead of using a default one", () => {
    expect(compose).toMatch(/POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?/);
    expect(compose).not.toMatch(/POSTGRES_PASSWORD:-/);
  });

  it("listens, publishes and checks health on PORT", () => {
    const app = doc.services.app;
    expect(app.environment?.PORT).toBe("${PORT:-8000}");
    expect(app.ports).toEqual(["${PORT:-8000}:${PORT:-8000}"]);
    const probe = app.healthcheck!.test!.join(" ");
    expect(probe).toContain("Deno.env.get('PORT')");
    expect(probe).toContain("/healthz");
    expect(probe).not.toMatch(/:8000\//);
  });

  it("checks the backup service's health on the last backup's outcome (backup --check)", () => {
    const check = doc.services.backup.healthcheck!;
    expect(check.test).toEqual(["CMD", "deno", "task", "--quiet", "backup", "--check"]);
    expect(doc.services.backup.environment).toMatchObject({
      BACKUP_TIMEOUT_MS: "${BACKUP_TIMEOUT_MS:-1800000}",
    });
  });
});

describe("Dockerfile", () => {
  it("has a health check that reads PORT", () => {
    const healthcheck = /^HEALTHCHECK .*\n\s+CMD (.*)$/m.exec(dockerfile)![1];
    expect(healthcheck).toContain("Deno.env.get('PORT')");
    expect(healthcheck).toContain("/healthz");
    expect(healthcheck).not.toMatch(/:8000\//);
  });

  it("runs main.ts with the V8 flags and permissions of `deno task start`", () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)![1]) as string[];
    expect(cmd.slice(0, 3)).toEqual(["deno", "run", "--cached-only"]);
    expect(cmd.at(-1)).toBe("main.ts");
    const flags = startRunFlags(read("deno.json"));
    expect(flags.some((f) => f.startsWith("--v8-flags="))).toBe(true);
    expect(cmd.slice(3, -1)).toEqual(flags);
  });

  it("caches the graph of the PDF renderer, the second process the server starts", () => {
    // The server runs with --cached-only and so does the renderer: a module of
    // its graph missing from the image's cache would fail every PDF at run time.
    const entry = rendererArgs().at(-1)!;
    expect(entry.startsWith(projectRoot)).toBe(true);
    const cached = /deno cache --frozen ([^\n]*(?:\\\n[^\n]*)*)/.exec(dockerfile)![1]
      .replaceAll("\\\n", " ").split(/\s+/);
    expect(cached).toEqual(expect.arrayContaining(["main.ts", entry.slice(projectRoot.length)]));
    expect(rendererArgs()).toContain("--cached-only");
  });

  it("drops exactly the imports only the tests use, and leaves the npm cache behind", async () => {
    const dropped = /^ARG TEST_ONLY_IMPORTS="([^"]*)"$/m.exec(dockerfile)![1].split(/\s+/);
    const imports = Object.keys(JSON.parse(read("deno.json")).imports as Record<string, string>)
      .map((k) => k.replace(/\/$/, ""));
    // What the image runs: the app, the cli/ commands, the bundle build and the prune.
    const entrypoints = [
      "main.ts",
      "src/pdf/pdf_renderer.ts",
      "cli/migrate.ts",
      "cli/seed.ts",
      "cli/backup.ts",
      "cli/restore.ts",
      "src/assets/build.ts",
      "src/assets/image_prune.ts",
      "src/assets/prune_imports.ts",
      ...[...Deno.readDirSync(`${projectRoot}db/migrations`)].map((e) => `db/migrations/${e.name}`),
    ];
    const used = new Set<string>();
    for (const entry of entrypoints) {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["info", "--json", entry],
        cwd: projectRoot,
        stdout: "piped",
        stderr: "null",
      }).output();
      expect(out.code).toBe(0);
      const graph = JSON.parse(new TextDecoder().decode(out.stdout)) as {
        modules: { specifier: string; dependencies?: { specifier: string }[] }[];
      };
      for (const mod of graph.modules) {
        if (!mod.specifier.startsWith("file:")) continue;
        // A package whose files are read at run time (the PDF font) is resolved with
        // import.meta.resolve, which the module graph does not list.
        const source = Deno.readTextFileSync(new URL(mod.specifier));
        for (const [, target] of source.matchAll(/import\.meta\.resolve\(\s*[`'"]([^`'"$]+)/g)) {
          const name = imports.find((i) => target === i || target.startsWith(i + "/"));
          if (name) used.add(name);
        }
        for (const dep of mod.dependencies ?? []) {
          const name = imports.find((i) =>
            dep.specifier === i || dep.specifier.startsWith(i + "/")
          );
          if (name) used.add(name);
        }
      }
    }
    // Every runtime import stays; every other one is dropped (compilerOptions.types,
    // the @types/* packages, are only for `deno check`).
    expect(dropped.filter((d) => used.has(d))).toEqual([]);
    expect(imports.filter((i) => !used.has(i) && !dropped.includes(i))).toEqual([]);
    expect(dropped).toEqual(expect.arrayContaining([
      "playwright-core",
      "oauth2-mock-server",
      "smtp-server",
      "expect",
    ]));
    // The runtime stage takes DENO_DIR's transpiled modules, never its npm copy.
    const runtime = dockerfile.slice(dockerfile.indexOf("AS runtime"));
    expect(runtime).toMatch(/COPY --from=build --chown=deno:deno \/deno-dir\/gen /);
    expect(runtime).not.toMatch(/COPY --from=build [^\n]*\/deno-dir(\/npm)? /);
  });

  it("prunes deno.json with a module it copies in before running it", () => {
    // The prune runs before `COPY . .`: the module needs a COPY of its own.
    const copy = dockerfile.indexOf("COPY src/assets/prune_imports.ts /tmp/prune_imports.ts");
    const runs = [...dockerfile.matchAll(/\/tmp\/prune_imports\.ts[\s\\]+(prune|check) /g)];
    expect(copy).toBeGreaterThan(-1);
    expect(runs.map((m) => m[1])).toEqual(["prune", "check"]);
    expect(runs.every((m) => m.index! > copy)).toBe(true);
    expect(copy).toBeLessThan(dockerfile.indexOf("COPY . ."));
    const list = /^ARG TEST_ONLY_IMPORTS="([^"]*)"$/m.exec(dockerfile)![1];
    const pruned = pruneConfig(JSON.parse(read("deno.json")), importNames(list));
    expect(pruned.compilerOptions?.types).toBeUndefined();
    expect(Object.keys(pruned.imports)).toEqual(expect.arrayContaining(["hono", "react"]));
  });
});

describe(".dockerignore", () => {
  it("keeps local state, backups, secrets, tests and host builds out of the image", () => {
    const entries = read(".dockerignore").split("\n").filter((l) => l && !l.startsWith("#"));
    expect(entries).toEqual(expect.arrayContaining([
      "node_modules",
      "static/build",
      "data",
      "backups",
      "*.sql",
      ".env",
      ".env.*",
      ".git",
      "tests",
      "bench",
      ".test-results",
    ]));
  });
});
