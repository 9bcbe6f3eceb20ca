// The images the container tests use: the Debian base, the stand-ins tagged with the
// official names (tests/container/stand_ins/), and the app image built from the Dockerfile.
import { join } from "node:path";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { sha256 } from "@oslojs/crypto/sha2";
import { parse } from "yaml";
import { projectRoot } from "../process.ts";
import { imageExists, imageLabel, podman, podmanOk, requireTools, runOk } from "./run.ts";

/** The Debian release of the stand-ins' base: trixie has PostgreSQL 17, as postgres:17 does. */
export const DEBIAN_SUITE = "trixie";
export const DEBIAN_BASE = `localhost/debian:${DEBIAN_SUITE}-minbase`;

/** The Debian mirror apt uses on this machine. */
async function debianMirror(): Promise<string> {
  const files = ["/etc/apt/sources.list"];
  try {
    for (const entry of Deno.readDirSync("/etc/apt/sources.list.d")) {
      files.push(`/etc/apt/sources.list.d/${entry.name}`);
    }
  } catch {
    // no such folder: sources.list alone
  }
  for (const file of files) {
    const text = await Deno.readTextFile(file).catch(() => "");
    const uri = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text)?.[1];
    if (uri) return uri;
  }
  return "http://deb.debian.org/debian";
}

/**
 * The Debian base of every stand-in: debootstrap's minbase, without apt's
 * lists and the docs (as Debian's slim images), imported into podman.
 * Made once; later runs find it in podman's storage.
 */
export function ensureDebianBase(): Promise<boolean> {
  debianBase ??= oneAtATime("debian-base", makeDebianBase);
  return debianBase;
}

/**
 * Runs `make` while holding a lock file that every test process shares: the
 * test files run in parallel processes, and two of them building the same
 * image at once would do the work twice or tag half-made images. The second
 * then finds the image made and reuses it.
 */
async function oneAtATime<T>(name: string, make: () => Promise<T>): Promise<T> {
  const lock = await Deno.open(join("/var/tmp", `lensdesk-podman-${name}.lock`), {
    create: true,
    write: true,
  });
  try {
    await lock.lock(true);
    return await make();
  } finally {
    lock.close();
  }
}

let debianBase: Promise<boolean> | undefined;

async function makeDebianBase(): Promise<boolean> {
  await requireTools();
  if (await imageExists(DEBIAN_BASE)) return false;
  const dir = await Deno.makeTempDir({ prefix: "lensdesk-debootstrap-", dir: "/var/tmp" });
  try {
    const root = join(dir, "root");
    await runOk("debootstrap", ["--variant=minbase", DEBIAN_SUITE, root, await debianMirror()]);
    await runOk("sh", [
      "-c",
      'cd "$0" && rm -rf var/lib/apt/lists/* var/cache/apt/*.bin usr/share/doc/* ' +
      "usr/share/man/* usr/share/info/* usr/share/locale/*",
      root,
    ]);
    await runOk("sh", [
      "-c",
      'tar -C "$0" -c . | podman import --change "CMD [\\"bash\\"]" - "$1"',
      root,
      DEBIAN_BASE,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  return true;
}

const read = (name: string) => Deno.readTextFileSync(join(projectRoot, name));

/** The base image the Dockerfile builds FROM, with its ARG default filled in. */
export function dockerfileBase(): { tag: string; denoVersion: string } {
  const dockerfile = read("Dockerfile");
  const denoVersion = /^ARG DENO_VERSION=(\S+)$/m.exec(dockerfile)![1];
  const from = /^FROM (\S+) AS build$/m.exec(dockerfile)![1]
    .replace("${DENO_VERSION}", denoVersion);
  return { tag: qualified(from), denoVersion };
}

/** An image of compose.yaml's service, as podman names it. */
export function composeImage(service: string): string {
  const doc = parse(read("compose.yaml"), { merge: true }) as {
    services: Record<string, { image: string }>;
  };
  return qualified(doc.services[service].image);
}

/** "postgres:17" as the fully qualified name Docker and podman give it. */
function qualified(name: string): string {
  const slash = name.split("/");
  if (slash.length > 2 || /[.:]/.test(slash[0]) && slash.length > 1) return name;
  return slash.length === 1 ? `docker.io/library/${name}` : `docker.io/${name}`;
}

export type StandIn = "deno" | "postgres" | "caddy";

/** The official image each stand-in takes the place of, as the project's files name it. */
export function standInTag(name: StandIn): string {
  if (name === "deno") return dockerfileBase().tag;
  return composeImage(name === "postgres" ? "db" : "caddy");
}

const STAND_INS = join(projectRoot, "tests/container/stand_ins");

/**
 * Builds a stand-in unless podman already holds one made from the same
 * recipe (its files, build arguments and base). Returns whether it built.
 */
export async function ensureStandIn(name: StandIn): Promise<boolean> {
  await ensureDebianBase();
  return await oneAtATime(`stand-in-${name}`, () => makeStandIn(name));
}

async function makeStandIn(name: StandIn): Promise<boolean> {
  const tag = standInTag(name);
  const dir = join(STAND_INS, name);
  const buildArgs: Record<string, string> = {
    BASE: DEBIAN_BASE,
    ...(name === "deno" ? { DENO_VERSION: dockerfileBase().denoVersion } : {}),
    // postgres:17 gets PostgreSQL 17: the tag's major version picks the package.
    ...(name === "postgres" ? { PG_MAJOR: tag.split(":").at(-1)!.split(".")[0] } : {}),
  };
  const parts = [
    name,
    JSON.stringify(buildArgs),
    (await podmanOk(["image", "inspect", "--format", "{{.Id}}", DEBIAN_BASE])).trim(),
  ];
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    parts.push(entry.name, Deno.readTextFileSync(join(dir, entry.name)));
  }
  if (name === "deno") parts.push(await Deno.readTextFile(caBundle()));
  const recipe = encodeHexLowerCase(sha256(new TextEncoder().encode(parts.join("\0"))));
  if (await imageLabel(tag, "lensdesk.stand-in") === recipe) return false;

  const context = await Deno.makeTempDir({ prefix: `lensdesk-${name}-` });
  try {
    for (const entry of Deno.readDirSync(dir)) {
      await Deno.copyFile(join(dir, entry.name), join(context, entry.name));
    }
    if (name === "deno") {
      await Deno.copyFile(caBundle(), join(context, "ca-certificates.crt"));
      await denoBinary(buildArgs.DENO_VERSION, join(context, "deno"));
    }
    await runOk("podman", [
      "build",
      // A failed build's intermediate containers go too, not only a finished one's.
      "--force-rm",
      "--format",
      "docker",
      // Package downloads (apt) use the machine's network as they are.
      "--network",
      "host",
      "--label",
      `lensdesk.stand-in=${recipe}`,
      ...Object.entries(buildArgs).flatMap(([k, v]) => ["--build-arg", `${k}=${v}`]),
      "--tag",
      tag,
      context,
    ]);
  } finally {
    await Deno.remove(context, { recursive: true });
  }
  return true;
}

/**
 * The machine's CA bundle, which the deno stand-in carries: package downloads
 * here pass a TLS proxy whose certificate only that bundle vouches for.
 */
function caBundle(): string {
  return Deno.env.get("SSL_CERT_FILE") || "/etc/ssl/certs/ca-certificates.crt";
}

/** The linux-x64 deno binary of the npm package, as `npm install deno` gets it. */
async function denoBinary(version: string, to: string) {
  const dir = await Deno.makeTempDir({ prefix: "lensdesk-deno-npm-" });
  try {
    const name = (await runOk("npm", [
      "pack",
      "--silent",
      `@deno/linux-x64-glibc@${version}`,
      "--pack-destination",
      dir,
    ])).trim().split("\n").at(-1)!;
    await runOk("tar", ["-xzf", join(dir, name), "-C", dir, "package/deno"]);
    await Deno.copyFile(join(dir, "package/deno"), to);
    await Deno.chmod(to, 0o755);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The tag compose.yaml gives the app image, which the image test builds once for both tests. */
export const APP_IMAGE = "localhost/lensdesk:local";

let appImage: Promise<{ ms: number }> | undefined;

/**
 * The project's Dockerfile built as compose.yaml's app image, in Docker's
 * format (OCI drops HEALTHCHECK), on the deno stand-in. Once per test
 * process; podman's layer cache makes an unchanged rebuild quick.
 */
export function buildAppImage(): Promise<{ ms: number }> {
  appImage ??= (async () => {
    await ensureStandIn("deno");
    return await oneAtATime("app-image", buildImage);
  })();
  return appImage;
}

async function buildImage(): Promise<{ ms: number }> {
  const started = performance.now();
  await podmanOk([
    "build",
    // A failed build's intermediate containers go too, not only a finished one's.
    "--force-rm",
    "--format",
    "docker",
    "--network",
    "host",
    "--tag",
    APP_IMAGE,
    projectRoot,
  ]);
  // The build stage of each earlier source is kept as an untagged image
  // (the layer cache); those older than a day go.
  await podman(["image", "prune", "--force", "--filter", "until=24h"]);
  return { ms: performance.now() - started };
}
