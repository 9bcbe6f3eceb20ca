import type * as z from "zod";
import { CONTROL_CHARS_PARAM } from "./text.ts";

type Issue = z.core.$ZodIssue;
type Key = PropertyKey;

/**
 * A union that matched no branch reports every branch's issues. When the
 * value had the wrong type for every branch, the union's own message says it
 * best ("Price is required"). Otherwise the branch that came closest says
 * what is wrong: the one with the fewest issues, preferring one that
 * recognised the keys sent (a strict `{email}` branch saying "unrecognized
 * keys" is rarely the form the caller meant).
 */
function closestBranch(issue: Extract<Issue, { code: "invalid_union" }>): Issue[] | undefined {
  const wrongType = (b: Issue[]) => b.every((i) => i.code === "invalid_type" && !i.path.length);
  const branches = issue.errors.filter((b) => b.length > 0 && !wrongType(b));
  if (!branches.length) return undefined;
  const score = (b: Issue[]) =>
    b.length + (b.some((i) => i.code === "unrecognized_keys" && i.path.length === 0) ? 1000 : 0);
  return branches.reduce((best, b) => score(b) < score(best) ? b : best);
}

/** The issues with unions unwrapped to their closest branch, paths made absolute. */
function flatIssues(issues: readonly Issue[], prefix: Key[] = []): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const branch = issue.code === "invalid_union" ? closestBranch(issue) : undefined;
    if (branch) out.push(...flatIssues(branch, path));
    else out.push({ ...issue, path } as Issue);
  }
  return out;
}

const fieldName = (issue: Issue) => issue.path.map(String).join(".") || "_";

/**
 * Field name → its first message: the shape forms use to put a message under a
 * field, and the `errors` of a 400 answer. Issues without a path go under "_".
 */
export function formErrors(error: z.ZodError): Record<string, string> {
  // A Map first: a field named "__proto__" must become a key, not a prototype.
  const out = new Map<string, string>();
  for (const issue of flatIssues(error.issues)) {
    const field = fieldName(issue);
    if (!out.has(field)) out.set(field, issue.message);
  }
  return Object.fromEntries(out);
}

const isControlChars = (issue: Issue) =>
  issue.code === "custom" && !!(issue.params as Record<string, unknown> | undefined)?.[
    CONTROL_CHARS_PARAM
  ];

/**
 * The one-line message of a 400: the first field's own message, except that a
 * control character (which no form lets a person type) names the field, so
 * whoever sent it can tell which one.
 */
export function summaryMessage(error: z.ZodError): string {
  const issues = flatIssues(error.issues);
  const control = issues.find(isControlChars);
  if (control) return `${fieldName(control)}: ${control.message.toLowerCase()}`;
  return issues[0]?.message ?? "Invalid input";
}
