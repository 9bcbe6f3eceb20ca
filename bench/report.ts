// The table a run prints on stdout, from its results as written to the file.
import type { Throughput } from "./throughput.ts";
import type { SearchFigures } from "./searches.ts";
import type { FillTimes } from "./fill.ts";
import type { Target } from "./targets.ts";

export interface Results {
  at: string;
  quick: boolean;
  huge: boolean;
  engine: string;
  store: {
    clients: number;
    quotes: number;
    options: number;
    items: number;
    fillSeconds: { small: number; large: number };
    fill: { small: FillTimes; large: FillTimes };
  };
  machine: { cpus: number; loadAverage: number[] };
  throughput: Throughput[];
  searches: SearchFigures[];
  pdf: {
    optionsPerQuote: number;
    p50ms: number;
    msPerOption: number;
    firstMs: number;
    warmUp: number;
  };
  email: { p50ms: number; samples: number };
  rssMiB: number;
  rssAfterPagesMiB: number;
  rssPeakMiB: number;
  renderer: { processes: number; rssMiB: number; anonymousMiB: number };
  jsPerPage: { page: string; files: number; br: number; gz: number }[];
  entry: unknown;
  errors: number;
  searchTarget: string;
  targets: Target[];
  /** The whole run, fills included. */
  runSeconds: number;
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const thousands = (n: number) => n.toLocaleString("en-US");
/** Cells padded to widths: the first `left` of them text, the rest figures. */
const row = (cells: string[], widths: number[], left = 1) =>
  cells.map((c, i) => i < left ? c.padEnd(widths[i]) : c.padStart(widths[i])).join("  ");

/** The figures of a run, every search among them. */
export function printFigures(r: Results) {
  console.log(
    `\n${thousands(r.store.clients)} clients, ${thousands(r.store.quotes)} quotes, ` +
      `${thousands(r.store.items)} items; ${r.engine} database; ` +
      `load average ${r.machine.loadAverage.map(f1).join(" ")} on ${r.machine.cpus} CPUs\n`,
  );
  let w = [38, 6, 9, 8, 8, 8];
  console.log(row(["throughput (wrk)", "conns", "req/s", "p50 ms", "p95 ms", "÷ healthz"], w));
  for (const t of r.throughput) {
    console.log(row([
      t.name,
      String(t.connections),
      f1(t.rps),
      f1(t.p50ms),
      f1(t.p95ms),
      f2(t.ratio),
    ], w));
  }
  w = [13, 16, 11, 7, 7, 8, 8, 6, 7];
  const size = `${r.store.clients / 1000}k`;
  console.log(`\nsearches, one at a time (ms); target: ${r.searchTarget}`);
  console.log(row(
    ["search", "family", "word", "p50 1k", "p95 1k", `p50 ${size}`, `p95 ${size}`, "p95 ×", "≤ ms"],
    w,
    3,
  ));
  for (const s of r.searches) {
    console.log(row(
      [
        s.kind,
        s.family,
        s.word,
        f1(s.small.p50ms),
        f1(s.small.p95ms),
        f1(s.large.p50ms),
        f1(s.large.p95ms),
        f2(s.growth),
        f1(s.limitMs),
      ],
      w,
      3,
    ));
  }
  console.log(
    `\nPDF: ${f1(r.pdf.p50ms)} ms for ${r.pdf.optionsPerQuote} options, ${
      f1(r.pdf.msPerOption)
    } ms per option (p50 of ${r.email.samples} after ${r.pdf.warmUp} untimed); ` +
      `the first, starting the renderer: ${f1(r.pdf.firstMs)} ms`,
  );
  console.log(`E-mail (render, queue, one refused delivery): ${f1(r.email.p50ms)} ms (median)`);
  console.log(
    `Server RSS after the load: ${f1(r.rssMiB)} MiB (${
      f1(r.rssAfterPagesMiB)
    } before the PDFs; peak ${f1(r.rssPeakMiB)})`,
  );
  console.log(
    `PDF renderer (${r.renderer.processes} process, ended after PDF_IDLE_MS without a PDF): ` +
      `RSS ${f1(r.renderer.rssMiB)} MiB, ${f1(r.renderer.anonymousMiB)} of it its own ` +
      `(the rest is mapped files, the deno binary's pages shared with the server)`,
  );
  console.log("\nJavaScript per page (brotli / gzip, entry and statically imported chunks):");
  for (const j of r.jsPerPage) {
    console.log(
      `  ${j.page.padEnd(14)} ${(j.br / 1024).toFixed(1).padStart(6)} KiB br  ${
        (j.gz / 1024).toFixed(1).padStart(6)
      } KiB gz  (${j.files} files)`,
    );
  }
  if (r.errors) console.log(`\n${r.errors} failed requests: the figures above are not valid`);
  const { small, large } = r.store.fill;
  const fills = r.store.clients <= 1_000 ? [small] : [small, large];
  console.log(
    `\nFill (rows, indexes, vacuum and checkpoint): ${
      fills.map((f) => `${[f.rows, f.indexes, f.vacuum].map(f1).join(" + ")} = ${f1(f.seconds)} s`)
        .join("; ")
    }. The run took ${(r.runSeconds / 60).toFixed(1)} min.`,
  );
}

/** The targets, met or missed: the searches one by one only when missed (the table has them). */
export function printTargets(r: Results, path: string) {
  console.log("\ntargets");
  for (const t of r.targets.filter((t) => !t.search || !t.met)) {
    const limit = t.min !== undefined ? `≥ ${t.min}` : `≤ ${f2(t.max!)}`;
    console.log(
      `  ${t.met ? "met   " : "MISSED"}  ${t.name.padEnd(52)} ${f2(t.value).padStart(8)}  ${limit}`,
    );
  }
  const searches = r.targets.filter((t) => t.search);
  console.log(
    `  ${searches.filter((t) => t.met).length} of ${searches.length} searches met ` +
      `${r.searchTarget} at ${r.store.clients / 1000}k`,
  );
  const missed = r.targets.filter((t) => !t.met).length;
  console.log(
    missed ? `\n${missed} target(s) missed. Results in ${path}` : `\nAll targets met. ${path}`,
  );
  return missed;
}
