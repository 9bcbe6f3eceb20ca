import type { z } from "zod";

/**
 * Field name → its first message: the shape forms use to put a message under a
 * field, and the `errors` of a 400 answer. Issues without a path go under "_".
 */
export function formErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    out[key] ??= issue.message;
  }
  return out;
}
