// `deno task screenshots` (tests/screenshots.ts) run into a folder of its own:
// each picture comes out at the size its table gives it, and every image
// README.md and docs/ show is a file of the repository that the script makes,
// so a picture the docs show can neither go missing nor be one nothing remakes.
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { dirname, join, relative, resolve } from "node:path";
import { DEFAULT_OUT_DIR, SHOTS, takeScreenshots } from "../screenshots.ts";
import { projectRoot } from "../helpers/process.ts";

/** A PNG's width and height, from its IHDR chunk (the first, right after the signature). */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) {
    throw new Error("not a PNG");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = new TextDecoder().decode(bytes.subarray(12, 16));
  if (type !== "IHDR") throw new Error(`a PNG whose first chunk is ${type}, not IHDR`);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The images a Markdown text shows: `![alt](src "title")`, reference images
 * (`![alt][ref]` with `[ref]: src`) and HTML `<img src>`, outside code.
 */
function imagesIn(markdown: string): string[] {
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
    .replace(/`[^`\n]+`/g, "");
  const found: string[] = [];
  for (const [, src] of text.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)/g)) {
    found.push(src);
  }
  const definitions = new Map<string, string>();
  for (const [, label, src] of text.matchAll(/^ {0,3}\[([^\]]+)\]:\s*<?([^\s>]+)>?/gm)) {
    definitions.set(label.toLowerCase(), src);
  }
  for (const [, alt, label] of text.matchAll(/!\[([^\]]*)\]\[([^\]]*)\]/g)) {
    const src = definitions.get((label || alt).toLowerCase());
    if (src) found.push(src);
  }
  for (const [, , src] of text.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(["'])(.*?)\1/gi)) found.push(src);
  return found;
}

/** README.md and every Markdown file under docs/, as paths from the project root. */
function documents(): string[] {
  const found = ["README.md"];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(join(projectRoot, dir))) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) walk(path);
      else if (entry.isFile && entry.name.endsWith(".md")) found.push(path);
    }
  };
  walk("docs");
  return found.sort();
}

const exists = (path: string) => Deno.stat(path).then((s) => s.isFile, () => false);

let outDir: string;

before(async () => {
  outDir = await Deno.makeTempDir({ prefix: "lensdesk-screenshots-test-" });
  await takeScreenshots(outDir);
});

after(async () => {
  if (outDir) await Deno.remove(outDir, { recursive: true });
});

describe("deno task screenshots", () => {
  it("makes every picture of its table at that picture's fixed size", async () => {
    const made = [...Deno.readDirSync(outDir)].map((e) => e.name).sort();
    expect(made).toEqual(Object.keys(SHOTS).sort());
    for (const [name, size] of Object.entries(SHOTS)) {
      const bytes = await Deno.readFile(join(outDir, name));
      expect({ name, size: pngSize(bytes) }).toEqual({ name, size });
      // A blank page or a cut-off capture is a few kilobytes; a screen is tens.
      expect({ name, big: bytes.length > 20_000 }).toEqual({ name, big: true });
    }
  });

  it("keeps the pictures in docs/images at the sizes of the table", async () => {
    for (const [name, size] of Object.entries(SHOTS)) {
      const path = join(DEFAULT_OUT_DIR, name);
      if (!await exists(path)) continue;
      expect({ name, size: pngSize(await Deno.readFile(path)) }).toEqual({ name, size });
    }
  });

  it("every image README.md and docs/ show is in the repository and made by the script", async () => {
    const made = new Set(Object.keys(SHOTS).map((name) => join(DEFAULT_OUT_DIR, name)));
    const wrong: string[] = [];
    for (const doc of documents()) {
      const markdown = await Deno.readTextFile(join(projectRoot, doc));
      for (const src of imagesIn(markdown)) {
        // Pictures from elsewhere (a CI badge) are not the repository's to keep.
        if (/^[a-z][a-z0-9+.-]*:/i.test(src) || src.startsWith("//")) continue;
        const local = decodeURIComponent(src.replace(/[?#].*$/, ""));
        const path = local.startsWith("/")
          ? join(projectRoot, local)
          : resolve(join(projectRoot, dirname(doc)), local);
        const shown = `${doc}: ${src}`;
        if (!await exists(path)) wrong.push(`${shown} (no such file)`);
        else if (!made.has(path)) {
          wrong.push(`${shown} (${relative(projectRoot, path)} is not made by the script)`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("finds images written any of the ways Markdown and HTML write them, and none in code", () => {
    const markdown = [
      "# Tour",
      '![The dashboard](docs/images/dashboard.png "At the desk")',
      "![Builder](<images/builder.png>)",
      "![Tablet][tablet] and ![order][]",
      '<p><img alt="Online" src="images/online-acceptance.png" width="640"></p>',
      "`![not this](inline.png)` nor this:",
      "```md",
      "![nor this](fenced.png)",
      "```",
      "[tablet]: images/tablet.png",
      "[order]: ./images/order.png",
    ].join("\n");
    expect(imagesIn(markdown)).toEqual([
      "docs/images/dashboard.png",
      "images/builder.png",
      "images/tablet.png",
      "./images/order.png",
      "images/online-acceptance.png",
    ]);
  });
});
