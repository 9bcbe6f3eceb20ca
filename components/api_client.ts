import { toast } from "./toast.tsx";

/**
 * The one way islands call the API. Cookies go along; a body is JSON and is
 * sent only when there is one. A failed call throws Error("{status}: {message}"),
 * the message being the JSON `message`, else the body text, else the status text.
 */
export async function apiRequest<T = unknown>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
  options: {
    /** The write's Idempotency-Key: sent again with the same key, it is done once. */
    idempotencyKey?: string;
  } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (options.idempotencyKey) headers["idempotency-key"] = options.idempotencyKey;
  const res = await fetch(url, {
    method,
    credentials: "same-origin",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new ApiError(res.status, await errorText(res), await errorFields(res));
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Sends a file as the raw request body (a CSV import), not as JSON, so it is
 * not inflated by encoding; the answer and errors work as in apiRequest.
 */
export async function apiUpload<T = unknown>(
  url: string,
  file: Blob,
  contentType: string,
): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { accept: "application/json", "content-type": contentType },
    body: file,
  });
  if (!res.ok) throw new ApiError(res.status, await errorText(res), await errorFields(res));
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The ApiError a refused answer stands for (its JSON `message` and `errors`). */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  return new ApiError(res.status, await errorText(res), await errorFields(res));
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly fields?: Record<string, string>,
  ) {
    super(`${status}: ${detail}`);
  }
}

const bodies = new WeakMap<Response, Promise<string>>();
function bodyText(res: Response): Promise<string> {
  let text = bodies.get(res);
  if (!text) {
    text = res.text().catch(() => "");
    bodies.set(res, text);
  }
  return text;
}

async function errorText(res: Response): Promise<string> {
  const text = await bodyText(res);
  try {
    const json = JSON.parse(text);
    if (json && typeof json.message === "string" && json.message) return json.message;
  } catch {
    // Not JSON: use the text as it is.
  }
  return text.trim() || res.statusText || "Request failed";
}

async function errorFields(res: Response): Promise<Record<string, string> | undefined> {
  try {
    const json = JSON.parse(await bodyText(res));
    return json && typeof json.errors === "object" ? json.errors : undefined;
  } catch {
    return undefined;
  }
}

/** The message after "{status}: ", for toasts that show the server's words. */
export function errorDetail(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error) return error.message;
  return undefined;
}

export const UNAUTHORIZED_REDIRECT_MS = 500;

/**
 * The spec's test for a lost session. Screens use it to skip their own failure
 * toast, which would replace the shared "You are logged out" one.
 */
export const isUnauthorized = (error: unknown): boolean =>
  error instanceof Error && error.message.includes("Unauthorized");

/**
 * The spec's 401 rule: an error whose message contains "Unauthorized" tells the
 * user and sends the browser to sign in again after half a second. Returns true
 * when it handled the error.
 */
export function handleUnauthorized(error: unknown): boolean {
  if (!isUnauthorized(error)) return false;
  toast({
    title: "Unauthorized",
    description: "You are logged out. Logging in again...",
    variant: "destructive",
  });
  const returnTo = location.pathname + location.search;
  setTimeout(() => {
    location.assign(`/api/login?returnTo=${encodeURIComponent(returnTo)}`);
  }, UNAUTHORIZED_REDIRECT_MS);
  return true;
}
