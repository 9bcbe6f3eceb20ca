// The pages a newcomer reads first (README.md and every docs/*.md) hold
// together: every link and image they name is there, every `deno task` they
// tell someone to run exists, and the README stays a five-minute read that
// names the two commands and leads to every other page.
import { describe, it } from "node:test";
import { expect } from "expect";
import { dirname, join, relative } from "node:path";
import { projectRoot } from "../helpers/process.ts";

const README = "README.md";
const README_MAX_LINES = 250;

function readerPages(): string[] {
  const docs = [...Deno.readDirSync(join(projectRoot, "docs"))]
    .filter((e) => e.isFile && e.name.endsWith(".md"))
    .map((e) => `docs/${e.name}`)
    .sort();
  return [README, ...docs];
}

const read = (page: string) => Deno.readTextFileSync(join(projectRoot, page));

/** The text outside fenced code blocks, where a `[x](y)` is a link and a `#` line a heading. */
function prose(markdown: string): string {
  let fence: string | undefined;
  return markdown.split("\n").map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening) {
      fence = opening;
      return "";
    }
    if (fence !== undefined) {
      if (line.trim().startsWith(fence)) fence = undefined;
      return "";
    }
    return line;
  }).join("\n");
}

interface Link {
  target: string;
  image: boolean;
  alt: string;
}

/** Markdown links and images, reference definitions, and HTML src/href attributes. */
function linksIn(markdown: string): Link[] {
  const text = prose(markdown);
  const links: Link[] = [];
  for (const m of text.matchAll(/(!?)\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ image: m[1] === "!", alt: m[2], target: m[3] });
  }
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)) {
    links.push({ image: false, alt: "", target: m[1] });
  }
  for (const m of text.matchAll(/<(img|a)\b[^>]*?\s(src|href)="([^"]+)"[^>]*>/gi)) {
    const alt = /\salt="([^"]*)"/i.exec(m[0])?.[1] ?? "";
    links.push({ image: m[1].toLowerCase() === "img", alt, target: m[3] });
  }
  return links;
}

/** A link that leaves the repository (https:, mailto:, …). */
const external = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//");

/** GitHub's anchor for each heading of a page, duplicates numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** What is wrong with one relative link of `page`, or undefined when it leads somewhere. */
function brokenLink(page: string, link: Link): string | undefined {
  const [pathPart, fragment] = link.target.split("#", 2);
  const file = pathPart === ""
    ? join(projectRoot, page)
    : join(projectRoot, dirname(page), decodeURIComponent(pathPart));
  const shown = `${page}: ${link.target}`;
  if (!file.startsWith(projectRoot)) return `${shown} leaves the repository`;
  if (!exists(file)) return `${shown}: ${relative(projectRoot, file)} does not exist`;
  if (fragment && file.endsWith(".md")) {
    const anchors = anchorsOf(Deno.readTextFileSync(file));
    if (!anchors.has(decodeURIComponent(fragment))) {
      return `${shown}: no heading of ${relative(projectRoot, file)} has the anchor #${fragment}`;
    }
  }
  if (link.image && link.alt.trim() === "") return `${shown}: an image without alt text`;
  return undefined;
}

/** Every task a page tells someone to run: `deno task NAME`, flags such as `--quiet` skipped. */
function tasksNamedIn(markdown: string): string[] {
  return [...markdown.matchAll(/\bdeno task((?:[ \t]+--?[a-z-]+)*)[ \t]+([A-Za-z0-9:_-]+)/g)]
    .map((m) => m[2]);
}

describe("the newcomer's pages (README.md, docs/*.md)", () => {
  const pages = readerPages();

  it("are found: the README and at least the operations, security and development pages", () => {
    for (const page of ["docs/operations.md", "docs/security.md", "docs/development.md"]) {
      expect(pages).toContain(page);
    }
  });

  it("link only to files (and headings) that exist, and give every image its alt text", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const link of linksIn(read(page))) {
        if (external(link.target)) continue;
        checked++;
        const problem = brokenLink(page, link);
        if (problem) problems.push(problem);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it("name only `deno task`s that deno.json defines", () => {
    const tasks = Object.keys(JSON.parse(read("deno.json")).tasks);
    const unknown: string[] = [];
    let named = 0;
    for (const page of pages) {
      for (const task of tasksNamedIn(read(page))) {
        named++;
        if (!tasks.includes(task)) unknown.push(`${page}: deno task ${task}`);
      }
    }
    expect(unknown).toEqual([]);
    expect(named).toBeGreaterThan(5);
  });

  it(`keep the README within ${README_MAX_LINES} lines, naming the two commands`, () => {
    const readme = read(README);
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
    expect(tasksNamedIn(readme)).toEqual(expect.arrayContaining(["start", "test"]));
  });

  it("lead from the README to every docs page and to the changelog", () => {
    const targets = new Set(
      linksIn(read(README)).filter((l) => !external(l.target)).map((l) => l.target.split("#")[0]),
    );
    const missing = [...pages.filter((p) => p !== README), "CHANGELOG.md"]
      .filter((p) => !targets.has(p));
    expect(missing).toEqual([]);
  });
});

describe("the newcomer test's own readers", () => {
  it("find links, images, reference links and HTML, but not what is inside code blocks", () => {
    const md = [
      "See [ops](docs/operations.md#configuration) and ![a chart](docs/images/x.png).",
      "[ref]: docs/security.md",
      '<img src="docs/images/y.png" alt="">',
      "```sh",
      "echo [not](a-link.md)",
      "```",
    ].join("\n");
    expect(linksIn(md)).toEqual([
      { image: false, alt: "ops", target: "docs/operations.md#configuration" },
      { image: true, alt: "a chart", target: "docs/images/x.png" },
      { image: false, alt: "", target: "docs/security.md" },
      { image: true, alt: "", target: "docs/images/y.png" },
    ]);
  });

  it("report a missing file, a missing heading and an image without alt text", () => {
    expect(brokenLink("README.md", { target: "docs/no-such-page.md", image: false, alt: "" }))
      .toContain("does not exist");
    expect(brokenLink("README.md", { target: "README.md#no-such-heading", image: false, alt: "" }))
      .toContain("no heading");
    expect(brokenLink("README.md", { target: "deno.json", image: true, alt: " " }))
      .toContain("alt text");
    expect(brokenLink("docs/security.md", { target: "../deno.json", image: false, alt: "" }))
      .toBeUndefined();
  });

  it("make GitHub's anchors from headings", () => {
    const anchors = anchorsOf(
      "# Lensdesk\n## The two commands\n## `deno task` and more!\n## Lensdesk",
    );
    expect([...anchors]).toEqual([
      "lensdesk",
      "the-two-commands",
      "deno-task-and-more",
      "lensdesk-1",
    ]);
  });

  it("read the task out of `deno task --quiet backup --check`", () => {
    expect(tasksNamedIn("run `deno task --quiet backup --check`, then deno task start"))
      .toEqual(["backup", "start"]);
  });
});
