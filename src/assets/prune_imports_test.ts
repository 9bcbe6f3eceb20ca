import { describe, it } from "node:test";
import { expect } from "expect";
import {
  type DenoConfig,
  type DenoLock,
  importNames,
  lockProblems,
  pruneConfig,
} from "./prune_imports.ts";

// Shapes cut from the project's deno.json and deno.lock (lock version 5).
const config = (): DenoConfig => ({
  nodeModulesDir: "manual",
  tasks: { start: "deno run main.ts" },
  compilerOptions: {
    jsx: "react-jsx",
    jsxImportSource: "react",
    types: ["@types/react", "@types/react-dom"],
  },
  imports: {
    "hono": "npm:hono@4.13.19",
    "hono/": "npm:/hono@4.13.19/",
    "react": "npm:react@19.3.1",
    "@types/react": "npm:@types/react@19.3.0",
    "expect": "npm:expect@30.5.2",
    "playwright-core": "npm:playwright-core@1.65.1",
    "@axe-core/playwright": "npm:@axe-core/playwright@4.14.0",
  },
});

const fullLock = (): DenoLock => ({
  version: "5",
  specifiers: {
    "npm:@axe-core/playwright@4.14.0": "4.14.0_playwright-core@1.65.1",
    "npm:@oslojs/jwt@0.2.0": "0.2.0",
    "npm:hono@4.13.19": "4.13.19",
    "npm:playwright-core@1.65.1": "1.65.1",
    "npm:react@19.3.1": "19.3.1",
  },
  npm: {
    "@axe-core/playwright@4.14.0_playwright-core@1.65.1": {
      integrity:
        "sha512-SGUhG5PIHd2eMdpgBF2PyQLOhX+qyDR2PT4cmoS4Qk2ak+jX/rrSvst9l0PGv5WTHolKpUMvVmoHpr4cZgf1RQ==",
      dependencies: ["axe-core", "playwright-core"],
    },
    "@oslojs/encoding@0.4.1": { integrity: "sha512-encoding041" },
    "@oslojs/encoding@1.1.0": { integrity: "sha512-encoding110" },
    "@oslojs/jwt@0.2.0": {
      integrity: "sha512-jwt020",
      dependencies: ["@oslojs/encoding@0.4.1"],
    },
    "axe-core@4.11.0": { integrity: "sha512-axe" },
    "hono@4.13.19": { integrity: "sha512-hono" },
    "playwright-core@1.65.1": { integrity: "sha512-playwright", bin: true },
    "react@19.3.1": { integrity: "sha512-react" },
  },
  workspace: { dependencies: ["npm:hono@4.13.19", "npm:react@19.3.1"] },
});

// What `deno install` writes after the prune: the test-only packages gone.
const prunedLock = (): DenoLock => {
  const lock = fullLock();
  delete lock.specifiers["npm:@axe-core/playwright@4.14.0"];
  delete lock.specifiers["npm:playwright-core@1.65.1"];
  delete lock.npm["@axe-core/playwright@4.14.0_playwright-core@1.65.1"];
  delete lock.npm["axe-core@4.11.0"];
  delete lock.npm["playwright-core@1.65.1"];
  return lock;
};

describe("pruneConfig", () => {
  it("drops the named imports and compilerOptions.types, and keeps the rest", () => {
    const out = pruneConfig(config(), ["expect", "playwright-core", "@axe-core/playwright"]);
    expect(Object.keys(out.imports)).toEqual(["hono", "hono/", "react", "@types/react"]);
    expect(out.compilerOptions).toEqual({ jsx: "react-jsx", jsxImportSource: "react" });
    expect(out.nodeModulesDir).toBe("manual");
    expect(out.tasks).toEqual({ start: "deno run main.ts" });
    // The key order stays, so the written file reads like the original.
    expect(Object.keys(out)).toEqual(Object.keys(config()));
  });

  it("leaves the input as it was", () => {
    const cfg = config();
    pruneConfig(cfg, ["expect"]);
    expect(cfg).toEqual(config());
  });

  it("refuses a name that deno.json does not import", () => {
    expect(() => pruneConfig(config(), ["expect", "smtp-server"]))
      .toThrow("TEST_ONLY_IMPORTS: smtp-server is not in deno.json");
    // An import map prefix entry is its own name.
    expect(() => pruneConfig(config(), ["hono/x"])).toThrow("hono/x");
  });

  it("reads the names from the build argument, whatever the spacing", () => {
    expect(importNames("  expect playwright-core\n\t@types/react ")).toEqual([
      "expect",
      "playwright-core",
      "@types/react",
    ]);
    expect(importNames("")).toEqual([]);
  });
});

describe("lockProblems", () => {
  it("passes a lock that only lost entries, and the full lock itself", () => {
    expect(lockProblems(fullLock(), prunedLock())).toEqual([]);
    expect(lockProblems(fullLock(), fullLock())).toEqual([]);
  });

  it("passes a dependency written bare in one lock and with its version in the other", () => {
    // With one version left, the pruned lock may name it without one.
    const full = fullLock();
    full.npm["hono@4.13.19"].dependencies = ["@oslojs/encoding@1.1.0"];
    const pruned = prunedLock();
    delete pruned.npm["@oslojs/encoding@0.4.1"];
    delete pruned.npm["@oslojs/jwt@0.2.0"];
    delete pruned.specifiers["npm:@oslojs/jwt@0.2.0"];
    pruned.npm["hono@4.13.19"].dependencies = ["@oslojs/encoding"];
    expect(lockProblems(full, pruned)).toEqual([]);
  });

  it("names a package whose integrity changed", () => {
    const pruned = prunedLock();
    pruned.npm["hono@4.13.19"].integrity = "sha512-other";
    expect(lockProblems(fullLock(), pruned)).toEqual(["pruned deno.lock changed hono@4.13.19"]);
  });

  it("names a package whose dependencies changed", () => {
    const pruned = prunedLock();
    pruned.npm["@oslojs/jwt@0.2.0"].dependencies = ["@oslojs/encoding@1.1.0"];
    expect(lockProblems(fullLock(), pruned)).toEqual([
      "pruned deno.lock changed @oslojs/jwt@0.2.0",
    ]);
    pruned.npm["@oslojs/jwt@0.2.0"].dependencies = [];
    expect(lockProblems(fullLock(), pruned)).toEqual([
      "pruned deno.lock changed @oslojs/jwt@0.2.0",
    ]);
  });

  it("names a package the full lock does not have", () => {
    const pruned = prunedLock();
    pruned.npm["hono@4.14.0"] = { integrity: "sha512-newer" };
    expect(lockProblems(fullLock(), pruned)).toEqual(["pruned deno.lock changed hono@4.14.0"]);
  });

  it("names a specifier that resolves otherwise, or that is new", () => {
    const pruned = prunedLock();
    pruned.specifiers["npm:hono@4.13.19"] = "4.14.0";
    pruned.specifiers["npm:zod@4.6.7"] = "4.6.7";
    expect(lockProblems(fullLock(), pruned)).toEqual([
      "pruned deno.lock changed npm:hono@4.13.19",
      "pruned deno.lock changed npm:zod@4.6.7",
    ]);
  });

  it("passes the project's own lock against itself", () => {
    const lock = JSON.parse(
      Deno.readTextFileSync(new URL("../../deno.lock", import.meta.url)),
    ) as DenoLock;
    expect(lockProblems(lock, lock)).toEqual([]);
    expect(Object.keys(lock.npm).length).toBeGreaterThan(10);
  });
});
