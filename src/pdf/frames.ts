// The messages between the server and a PDF renderer process, over the
// child's stdin and stdout. A pipe is a byte stream, so each message is a
// frame: two big-endian 32-bit lengths, then a JSON header and a binary body
// of those lengths. The body carries bytes (the logo, the PDF) as they are:
// as JSON they would be base64 and a third larger.

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
  let buffered = new Uint8Array(0);
  const take = (n: number) => {
    const part = buffered.slice(0, n);
    buffered = buffered.subarray(n);
    return part;
  };
  for await (const chunk of stream) {
    const joined = new Uint8Array(buffered.length + chunk.length);
    joined.set(buffered);
    joined.set(chunk, buffered.length);
    buffered = joined;
    while (buffered.length >= 8) {
      const view = new DataView(buffered.buffer, buffered.byteOffset, 8);
      const headLength = view.getUint32(0);
      const bodyLength = view.getUint32(4);
      if (headLength > MAX_FRAME_PART || bodyLength > MAX_FRAME_PART) {
        throw new Error(`A frame announced ${headLength} + ${bodyLength} bytes`);
      }
      if (buffered.length < 8 + headLength + bodyLength) break;
      take(8);
      const header = JSON.parse(decoder.decode(take(headLength))) as H;
      const body = take(bodyLength);
      yield bodyLength ? { header, body } : { header };
    }
  }
  if (buffered.length) throw new Error("The stream ended inside a frame");
}
