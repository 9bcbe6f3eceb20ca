import type { Context } from "hono";
import type * as z from "zod";
import { formErrors, summaryMessage } from "../schemas/form_errors.ts";

/** An expected failure with the status and message the caller should see. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 503,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, "Unauthorized: please sign in");
export const forbidden = (message = "Forbidden: your role may not do this") =>
  new HttpError(403, message);
export const notFound = (what = "Not found") => new HttpError(404, what);

/**
 * Reads and validates a JSON body. Malformed JSON, a non-JSON content type and
 * a schema mismatch are all 400s with a message a person can act on.
 */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new HttpError(415, "Expected a JSON body (Content-Type: application/json)");
  }
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, "The request body is not valid JSON");
  }
  return validated(schema, body);
}

/**
 * Reads and validates the query string (each parameter's last value). A bad
 * parameter is a 400 naming it, on pages as on the API, never a 500 from the
 * database.
 */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return validated(schema, c.req.query());
}

function validated<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new HttpError(400, summaryMessage(parsed.error), formErrors(parsed.error));
  }
  return parsed.data;
}
