import { useRef } from "react";

/**
 * One Idempotency-Key per attempt at a write: every send of the same request
 * (a double tap, a click again after an answer that never came) carries the
 * same key, so the server does it once and answers the others from it; a
 * changed request, or one sent after the last was done, gets a new key.
 */
export function useSendKey(): { keyFor(request: unknown): string; done(): void } {
  const last = useRef<{ request: string; key: string } | null>(null);
  return {
    keyFor(request) {
      const text = JSON.stringify(request);
      if (last.current?.request !== text) {
        last.current = { request: text, key: crypto.randomUUID() };
      }
      return last.current.key;
    },
    done() {
      last.current = null;
    },
  };
}
