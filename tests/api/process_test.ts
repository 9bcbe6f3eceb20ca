import { describe, it } from "node:test";
import { expect } from "expect";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/** Reads the child's stdout line by line until `match` is seen. */
async function waitForLine(
  lines: AsyncIterator<string>,
  seen: string[],
  match: (line: string) => boolean,
): Promise<string> {
  while (true) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`process ended before the expected line:\n${seen.join("\n")}`);
    seen.push(value);
    if (match(value)) return value;
  }
}

async function* splitLines(stream: ReadableStream<Uint8Array>) {
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let i;
    while ((i = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
    }
  }
  if (buffer) yield buffer;
}

describe("main.ts as a process", () => {
  it("starts, creates the first owner once, logs requests, and stops cleanly on SIGTERM", async () => {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "main.ts"],
      cwd: root,
      env: {
        DATABASE_URL: "memory://",
        PORT: "0",
        OWNER_USERNAME: "olivia",
        OWNER_PASSWORD: "s3cret-pass",
      },
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const seen: string[] = [];
    const lines = splitLines(child.stdout)[Symbol.asyncIterator]();
    try {
      const listening = JSON.parse(
        await waitForLine(lines, seen, (l) => l.includes('"msg":"listening"')),
      );
      const port = new URL(listening.url).port;
      expect(seen.some((l) => l.includes('"msg":"first owner account created"'))).toBe(true);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      const requestId = health.headers.get("x-request-id");
      await health.body?.cancel();
      const log = JSON.parse(
        await waitForLine(lines, seen, (l) => l.includes('"msg":"request"')),
      );
      expect(log).toMatchObject({
        level: "info",
        method: "GET",
        path: "/healthz",
        status: 200,
        reqId: requestId,
      });
      expect(typeof log.ms).toBe("number");
      child.kill("SIGTERM");
      await waitForLine(lines, seen, (l) => l.includes('"msg":"stopped"'));
      const status = await child.status;
      expect(status.code).toBe(0);
    } finally {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await lines.return?.();
    }
  });
});
