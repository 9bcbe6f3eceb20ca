// The test app in a process of its own, started with --expose-gc, for tests
// that measure what requests leave on the server's heap: it prints its URL,
// then answers each "heap" line on stdin with the heap in use after full
// collections, and ends when stdin closes. Run by tests/api/metrics_memory_test.ts.
import { startTestApp } from "./test_app.ts";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --v8-flags=--expose-gc");

const app = await startTestApp(JSON.parse(Deno.args[0] ?? "{}"));
const out = Deno.stdout.writable.getWriter();
const say = (line: string) => out.write(new TextEncoder().encode(line + "\n"));
await say(`listening ${app.baseUrl}`);

let buffer = "";
const decoder = new TextDecoder();
for await (const chunk of Deno.stdin.readable) {
  buffer += decoder.decode(chunk, { stream: true });
  let i;
  while ((i = buffer.indexOf("\n")) >= 0) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    if (line === "heap") {
      // Several passes: weak and finalized objects go in the later ones.
      for (let n = 0; n < 4; n++) gc();
      await say(`heap ${Deno.memoryUsage().heapUsed}`);
    }
  }
}
await app.close();
