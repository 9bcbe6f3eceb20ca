import * as z from "zod";

// The one building block for every string the app accepts (bodies, query
// strings, ids): PostgreSQL refuses a NUL in text, so without this a NUL
// anywhere was a 500, and other control characters end up in printed quotes,
// e-mail headers and logs. Each field then adds its own trim/min/max/format.

// Matching control characters is the point of these two expressions.
/** C0 controls, DEL and C1 controls: never in a single-line field. */
// deno-lint-ignore no-control-regex
const ANY_CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
/** The same but tab, line feed and carriage return, which a multi-line field may hold. */
// deno-lint-ignore no-control-regex
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export const CONTROL_CHARS_MESSAGE = "Must not contain control characters";

/** Marks the issue, so a 400 can name the field in its message. */
export const CONTROL_CHARS_PARAM = "controlChars";

/** True when `value` has a character the field may not hold (or broken UTF-16). */
export function hasForbiddenChars(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_BUT_LINE_BREAKS : ANY_CONTROL).test(value) ||
    !value.isWellFormed();
}

export interface TextOptions {
  /** Notes, addresses, an e-mail body: tab and line breaks are allowed. */
  multiline?: boolean;
  /** The message when the value is missing or not a string. */
  error?: string;
  /**
   * Trim first, so surrounding whitespace (a pasted tab) is dropped rather
   * than refused; what is inside is still checked.
   */
  trim?: boolean;
}

/**
 * A string without control characters: single-line unless `multiline`. A
 * lone surrogate (text that is not valid Unicode) is refused too. Callers
 * chain their own rules: `safeText({ trim: true }).min(1, "…").max(100)`.
 */
export function safeText(options: TextOptions = {}) {
  const multiline = options.multiline ?? false;
  const base = z.string(options.error ? { error: options.error } : undefined);
  return (options.trim ? base.trim() : base).refine(
    (s) => !hasForbiddenChars(s, multiline),
    { message: CONTROL_CHARS_MESSAGE, params: { [CONTROL_CHARS_PARAM]: true } },
  );
}

/** Shorthand for a multi-line field. */
export const multilineText = (options: Omit<TextOptions, "multiline"> = {}) =>
  safeText({ ...options, multiline: true });

/** An id in a query string or body: a UUID (its own format refuses control characters). */
export const uuidField = (message?: string) => safeText().pipe(z.uuid(message));

/**
 * A character a person can see and type back: a letter, digit, punctuation
 * or symbol, less the ones that show nothing (zero-width spaces, joiners,
 * Hangul fillers, which are letters, the Braille blank and the other
 * default-ignorable code points).
 */
const VISIBLE = /[[\p{L}\p{N}\p{P}\p{S}]--[\p{Default_Ignorable_Code_Point}\u2800]]/v;
/** The same for letters alone: what a name is written in. */
const VISIBLE_LETTER = /[[\p{L}]--[\p{Default_Ignorable_Code_Point}\u3164\uFFA0\u115F\u1160]]/gv;

/** Whether a text (a password) has at least one character that shows. */
export const hasVisibleCharacter = (p: string) => VISIBLE.test(p);

/** How many letters of a text (a name) show. */
export const visibleLetters = (s: string) => s.match(VISIBLE_LETTER)?.length ?? 0;
