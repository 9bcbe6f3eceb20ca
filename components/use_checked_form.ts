import { useCallback, useRef, useState } from "react";

type Values = Record<string, string | boolean>;

/** A form's check: the data to send, or field name → message. */
export type FormCheck<V, Out> = (values: V) => { data: Out } | { errors: Record<string, string> };

/**
 * Form state with a check that runs on submit and, once the form has been
 * submitted, again on every change, so a message goes away as soon as the
 * field is fixed. Knows nothing of zod: an island that needs only a few checks
 * (the intake) passes its own and leaves the rest to the server's schema, so
 * its page does not ship zod; useValidatedForm passes a shared zod schema.
 */
export function useCheckedForm<V extends Values, Out>(check: FormCheck<V, Out>, initial: V) {
  const [values, setValues] = useState<V>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submitted = useRef(false);

  const errorsOf = useCallback((v: V) => {
    const result = check(v);
    return "errors" in result ? result.errors : {};
  }, [check]);

  const setField = useCallback(<K extends keyof V>(field: K, value: V[K]) => {
    setValues((prev) => {
      const next = { ...prev, [field]: value };
      if (submitted.current) setErrors(errorsOf(next));
      return next;
    });
  }, [errorsOf]);

  /** Checks everything; returns the data, or null and focuses the first bad field. */
  const validate = useCallback((form?: HTMLFormElement | null): Out | null => {
    submitted.current = true;
    const result = check(values);
    if ("data" in result) {
      setErrors({});
      return result.data;
    }
    setErrors(result.errors);
    const first = Object.keys(result.errors)[0];
    queueMicrotask(() => {
      const el = form?.querySelector<HTMLElement>(`[name="${first}"]`);
      el?.focus();
    });
    return null;
  }, [check, values]);

  const reset = useCallback((next: V) => {
    submitted.current = false;
    setValues(next);
    setErrors({});
  }, []);

  return { values, errors, setField, validate, reset, setErrors };
}
