import * as z from "zod";

/** POST /api/objects/upload: what the file is for decides its size limit (default 10 MB). */
export const uploadRequestSchema = z.object({
  purpose: z.enum(["logo", "favicon", "image"], {
    error: "purpose must be logo, favicon or image",
  }).optional().default("image"),
});

const uploadUrl = (field: string) =>
  z.string({ error: `${field} is required` }).trim().min(1, `${field} is required`)
    .max(2048, `${field} is too long`);

/** PUT /api/admin/logo: the upload URL the logo was sent to. */
export const logoSchema = z.object({ logoUrl: uploadUrl("logoUrl") });

/** PUT /api/admin/stores/{id}/logo: the store's own logo's upload URL, or null for the chain's. */
export const storeLogoSchema = z.object({ logoUrl: uploadUrl("logoUrl").nullable() });

/** PUT /api/admin/favicon: the upload URL the favicon was sent to. */
export const faviconSchema = z.object({ faviconUrl: uploadUrl("faviconUrl") });
