// One HTTP/1.1 request written by hand on its own connection, for what fetch()
// will not send: made-up or forbidden methods (TRACE), very long request lines.

/** Sends `METHOD target HTTP/1.1` with a Host header; resolves to the status code (0 when the server closed without one). */
export async function rawRequest(baseUrl: string, method: string, target: string): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  try {
    const head = `${method} ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
      "Connection: close\r\n\r\n";
    await conn.write(new TextEncoder().encode(head));
    const decoder = new TextDecoder();
    let text = "";
    const buffer = new Uint8Array(4096);
    while (!text.includes("\r\n")) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) break;
      text += decoder.decode(buffer.subarray(0, n), { stream: true });
    }
    return Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
  } finally {
    try {
      conn.close();
    } catch {
      // already closed by the server
    }
  }
}
