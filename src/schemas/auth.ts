import { z } from "zod";

/** A path on this site: one leading slash, never "//host" or "/\host". */
export const localPath = z.string().max(2000).refine(
  (p) => p.startsWith("/") && !p.startsWith("//") && !p.startsWith("/\\"),
  "returnTo must be a path on this site",
);

export const staffLoginSchema = z.object({
  username: z.string({ error: "Username is required" }).trim().min(1, "Username is required")
    .max(200),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000),
  returnTo: localPath.optional(),
});
export type StaffLoginInput = z.infer<typeof staffLoginSchema>;

/** Where to go after signing in: a safe local path, else the dashboard. */
export function safeReturnTo(value: unknown, fallback = "/dashboard"): string {
  const parsed = localPath.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}
