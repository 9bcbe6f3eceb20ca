// A quote's PDF and its e-mail, timed one at a time, and the memory of the
// server and of the PDF renderer (a process of its own) after them.
import { PDF_SAMPLES, PDF_WARMUP } from "./mode.ts";
import { cookie, expectOk } from "./session.ts";
import { anonymousOf, childPidsOf, rssOf } from "./proc.ts";

export async function measurePdf(base: string, quoteId: string) {
  const bundle = JSON.parse(await expectOk(base, `/api/quotes/${quoteId}`));
  const optionCount = bundle.options.length as number;
  // The first PDF starts the renderer process (as the first after PDF_IDLE_MS
  // without one does in a store): timed apart. Then, as the searches are, the
  // renderer is warmed up: its code is compiled while it renders, and its
  // first renders after the start took 100-420 ms for a quote whose later
  // ones take 40-50. The PDF figure is the renderer's steady pace.
  const pdfPath = `/api/quotes/${quoteId}/pdf`;
  const firstStarted = performance.now();
  await expectOk(base, pdfPath);
  const firstMs = performance.now() - firstStarted;
  for (let i = 0; i < PDF_WARMUP; i++) await expectOk(base, pdfPath);
  // One at a time, timed here: a PDF takes long enough that a short wrk run may finish none.
  const pdfTimes: number[] = [];
  for (let i = 0; i < PDF_SAMPLES; i++) {
    const started = performance.now();
    await expectOk(base, pdfPath);
    pdfTimes.push(performance.now() - started);
  }
  // Each e-mail renders the PDF, queues the message and tries the (closed) server once.
  const emailTimes: number[] = [];
  for (let i = 0; i < PDF_SAMPLES; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/api/quotes/${quoteId}/email`, {
      method: "POST",
      headers: { cookie, origin: base, "content-type": "application/json" },
      body: JSON.stringify({ email: "client@example.com", note: "" }),
    });
    await res.body?.cancel();
    if (res.status !== 202 && res.status !== 200) throw new Error(`e-mail: ${res.status}`);
    emailTimes.push(performance.now() - started);
  }
  const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const p50ms = middle(pdfTimes);
  return {
    pdf: {
      optionsPerQuote: optionCount,
      p50ms,
      msPerOption: p50ms / optionCount,
      firstMs,
      warmUp: PDF_WARMUP,
    },
    email: { p50ms: middle(emailTimes), samples: emailTimes.length },
  };
}

/** The server's memory, and its PDF renderer's (alive until PDF_IDLE_MS without a PDF). */
export async function measureMemory(serverPid: number) {
  const rssMiB = await rssOf(serverPid);
  const rssPeakMiB = await rssOf(serverPid, "VmHWM");
  const rendererPids = await childPidsOf(serverPid);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return {
    rssMiB,
    rssPeakMiB,
    renderer: {
      processes: rendererPids.length,
      rssMiB: sum(await Promise.all(rendererPids.map((p) => rssOf(p)))),
      anonymousMiB: sum(await Promise.all(rendererPids.map(anonymousOf))),
    },
  };
}
