import { describe, it } from "node:test";
import { expect } from "expect";
import { encodeFrame, type Frame, MAX_FRAME_PART, readFrames } from "./frames.ts";
import { Buffer } from "node:buffer";

/** A stream that hands over `bytes` in the given chunk sizes (the rest in one). */
function chunked(bytes: Uint8Array, sizes: number[]): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const size of sizes) {
    chunks.push(bytes.slice(at, at + size));
    at += size;
  }
  if (at < bytes.length) chunks.push(bytes.slice(at));
  return ReadableStream.from(chunks);
}

const collect = async <H>(stream: ReadableStream<Uint8Array>) => {
  const out: Frame<H>[] = [];
  for await (const frame of readFrames<H>(stream)) out.push(frame);
  return out;
};

describe("frames", () => {
  const pdf = new Uint8Array(70_000).map((_, i) => i % 251);
  const frames: Frame<unknown>[] = [
    { header: { type: "ready" } },
    { header: { type: "done", id: 1, note: "Łódź ✓" }, body: pdf },
    { header: { type: "failed", id: 2, error: "x".repeat(10) } },
  ];
  const bytes = new Uint8Array(Buffer.concat(frames.map(encodeFrame)));

  it("come back as sent, however the stream cuts them", async () => {
    for (
      const sizes of [
        [],
        [1, 1, 1, 1, 1, 1, 1, 1, 1],
        [8, 3, 65_536],
        [bytes.length - 1],
        Array.from({ length: 200 }, () => 377),
      ]
    ) {
      expect(await collect(chunked(bytes, sizes))).toEqual(frames);
    }
  });

  it("refuse a stream that ends inside a frame", async () => {
    await expect(collect(chunked(bytes.slice(0, bytes.length - 1), []))).rejects.toThrow(
      "The stream ended inside a frame",
    );
  });

  it("refuse an impossible length instead of waiting for it", async () => {
    const head = new Uint8Array(8);
    new DataView(head.buffer).setUint32(4, MAX_FRAME_PART + 1);
    await expect(collect(chunked(head, []))).rejects.toThrow(/announced/);
  });
});
