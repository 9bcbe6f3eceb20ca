/** The five catalog sections of /admin, in sidebar order, with the words the screen uses. */
export const CATALOG_ADMIN_SECTIONS = [
  { key: "packages", label: "Lens Packages", type: "lens package", title: "Lens Package" },
  { key: "lens-types", label: "Lens Types", type: "lens type", title: "Lens Type" },
  { key: "materials", label: "Materials", type: "material", title: "Material" },
  { key: "ar-coatings", label: "AR Coatings", type: "AR coating", title: "AR Coating" },
  { key: "add-ons", label: "Add-Ons", type: "add-on", title: "Add-On" },
] as const;

export type CatalogSectionKey = (typeof CATALOG_ADMIN_SECTIONS)[number]["key"];
export type CatalogSectionInfo = (typeof CATALOG_ADMIN_SECTIONS)[number];

export function findCatalogSection(key: string): CatalogSectionInfo | undefined {
  return CATALOG_ADMIN_SECTIONS.find((s) => s.key === key);
}

/** "129.5" → "$129.50". */
export function formatPrice(price: string | number): string {
  const n = typeof price === "number" ? price : Number(price);
  return Number.isFinite(n) ? `$${n.toFixed(2)}` : String(price);
}

/** The spec's delete-confirmation message. */
export function nameMismatchMessage(type: string, name: string): string {
  return `The ${type} name does not match. Please type "${name}" exactly.`;
}
