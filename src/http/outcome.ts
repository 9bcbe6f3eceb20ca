import { HttpError } from "./errors.ts";

/**
 * What a domain's write answers: its value, or why it was refused (a 4xx,
 * with the field at fault when there is one). Routes turn a refusal into the
 * error answer with `unwrap`.
 */
export type Outcome<T> =
  | { ok: true; value: T }
  | { ok: false; status: 400 | 403 | 404 | 409; message: string; field?: string };

/** The value, or the refusal thrown as its HTTP error (`errors` names the field). */
export function unwrap<T>(result: Outcome<T>): T {
  if (result.ok) return result.value;
  throw new HttpError(
    result.status,
    result.message,
    result.field ? { [result.field]: result.message } : undefined,
  );
}
