import { useCallback, useRef, useState } from "react";
import type { z } from "zod";
import { formErrors } from "../src/schemas/form_errors.ts";

type Values = Record<string, string | boolean>;

/**
 * Form state checked by a shared zod schema: validation runs on submit and,
 * once the form has been submitted, again on every change, so a message goes
 * away as soon as the field is fixed.
 */
export function useValidatedForm<V extends Values, S extends z.ZodType>(schema: S, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submitted = useRef(false);

  const check = useCallback((v: V) => {
    const result = schema.safeParse(v);
    return result.success ? {} : formErrors(result.error);
  }, [schema]);

  const setField = useCallback(<K extends keyof V>(field: K, value: V[K]) => {
    setValues((prev) => {
      const next = { ...prev, [field]: value };
      if (submitted.current) setErrors(check(next));
      return next;
    });
  }, [check]);

  /** Validates everything; returns the parsed data, or null and focuses the first bad field. */
  const validate = useCallback((form?: HTMLFormElement | null): z.infer<S> | null => {
    submitted.current = true;
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    const errs = formErrors(result.error);
    setErrors(errs);
    const first = Object.keys(errs)[0];
    queueMicrotask(() => {
      const el = form?.querySelector<HTMLElement>(`[name="${first}"]`);
      el?.focus();
    });
    return null;
  }, [schema, values]);

  const reset = useCallback((next: V) => {
    submitted.current = false;
    setValues(next);
    setErrors({});
  }, []);

  return { values, errors, setField, validate, reset, setErrors };
}
