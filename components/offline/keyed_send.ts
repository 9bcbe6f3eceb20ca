import { ApiError, apiErrorOf } from "../api_client.ts";

/**
 * A write the tablet may have to send again: its body as first serialized (a
 * replay must be byte for byte the same, the server compares a hash) and the
 * Idempotency-Key made when it was first submitted.
 */
export interface KeyedRequest {
  method: "POST" | "PUT";
  url: string;
  body: string;
  key: string;
}

export type SendResult<T> =
  | { sent: true; value: T }
  /** No answer (offline, the server gone, the Wi-Fi dropped mid-request): send again later. */
  | { sent: false; again: true }
  /** A real answer refusing it: show it, do not send again. */
  | { sent: false; again: false; error: ApiError };

/** An answer that is not coming: the request is treated as unanswered and sent again. */
export const ANSWER_TIMEOUT_MS = 20_000;

export function keyedRequest(method: "POST" | "PUT", url: string, body: unknown): KeyedRequest {
  return { method, url, body: JSON.stringify(body), key: crypto.randomUUID() };
}

/**
 * Sends once. No answer, a 502-504, or any answer with Retry-After (the
 * server's "the first request with this key is still running", a rate limit)
 * is sent again later; the key makes sure the server writes it at most once.
 */
export async function sendKeyed<T>(request: KeyedRequest): Promise<SendResult<T>> {
  let res: Response;
  try {
    res = await fetch(request.url, {
      method: request.method,
      credentials: "same-origin",
      // (Every /api answer is JSON: no Accept header needed.)
      headers: {
        "content-type": "application/json",
        "Idempotency-Key": request.key,
      },
      body: request.body,
      signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
    });
  } catch {
    return { sent: false, again: true };
  }
  if (res.ok) {
    // An answer cut off midway throws here: the server has it, and a replay reads it back.
    return await res.json().then(
      (value: T) => ({ sent: true as const, value }),
      () => ({ sent: false as const, again: true as const }),
    );
  }
  // 502-504: the proxy could not reach the app (restarting, overloaded). A 500
  // is the app's own failure, rolled back: shown, not sent again forever.
  if (res.status > 500 || res.headers.has("Retry-After")) return { sent: false, again: true };
  return { sent: false, again: false, error: await apiErrorOf(res) };
}
