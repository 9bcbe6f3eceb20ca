import { useMemo } from "react";
import type * as z from "zod";
import { formErrors } from "../src/schemas/form_errors.ts";
import { useCheckedForm } from "./use_checked_form.ts";

type Values = Record<string, string | boolean>;

/**
 * Form state checked by a shared zod schema: validation runs on submit and,
 * once the form has been submitted, again on every change, so a message goes
 * away as soon as the field is fixed.
 */
export function useValidatedForm<V extends Values, S extends z.ZodType>(schema: S, initial: V) {
  const check = useMemo(() => (v: V) => {
    const result = schema.safeParse(v);
    return result.success
      ? { data: result.data as z.infer<S> }
      : { errors: formErrors(result.error) };
  }, [schema]);
  return useCheckedForm(check, initial);
}
