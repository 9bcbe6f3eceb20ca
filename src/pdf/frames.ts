// The messages between the server and a PDF renderer process, over the
// child's stdin and stdout. A pipe is a byte stream, so each message is a
// frame: two big-endian 32-bit lengths, then a JSON header and a binary body
// of those lengths. The body carries bytes (the logo, the PDF) as they are:
// as JSON they would be base64 and a third larger.
import { Buffer } from "node:buffer";

/** What one frame holds: a JSON-safe header and optional bytes. */
export interface Frame<H> {
  header: H;
  body?: Uint8Array;
}

/** A header or body larger than this is a broken stream, not a message. */
export const MAX_FRAME_PART = 256 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeFrame<H>({ header, body }: Frame<H>): Uint8Array {
  const head = encoder.encode(JSON.stringify(header));
  const bytes = body ?? new Uint8Array(0);
  const out = new Uint8Array(8 + head.length + bytes.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, head.length);
  view.setUint32(4, bytes.length);
  out.set(head, 8);
  out.set(bytes, 8 + head.length);
  return out;
}

/**
 * Frames out of a byte stream, however the stream cuts its chunks (a frame
 * may arrive in many reads, or several in one). Ends when the stream ends;
 * a stream that ends inside a frame, or announces an impossible length,
 * throws.
 */
export async function* readFrames<H>(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<Frame<H>> {
  // Chunks are kept as they come and joined only once the bytes needed next
  // (a frame's lengths, then the whole frame) are there: a PDF arriving in a
  // hundred reads is joined once, not once per read.
  let chunks: Uint8Array[] = [];
  let length = 0;
  let parts: { head: number; body: number } | undefined;
  let need = 8;
  for await (const chunk of stream) {
    chunks.push(chunk);
    length += chunk.length;
    while (length >= need) {
      const bytes = chunks.length > 1 ? new Uint8Array(Buffer.concat(chunks)) : chunks[0];
      chunks = [bytes];
      if (!parts) {
        const view = new DataView(bytes.buffer, bytes.byteOffset, 8);
        parts = { head: view.getUint32(0), body: view.getUint32(4) };
        if (parts.head > MAX_FRAME_PART || parts.body > MAX_FRAME_PART) {
          throw new Error(`A frame announced ${parts.head} + ${parts.body} bytes`);
        }
        need = 8 + parts.head + parts.body;
        continue;
      }
      const header = JSON.parse(decoder.decode(bytes.subarray(8, 8 + parts.head))) as H;
      const body = bytes.slice(8 + parts.head, need);
      chunks = need < length ? [bytes.subarray(need)] : [];
      length -= need;
      const hasBody = parts.body > 0;
      parts = undefined;
      need = 8;
      yield hasBody ? { header, body } : { header };
    }
  }
  if (length) throw new Error("The stream ended inside a frame");
}
