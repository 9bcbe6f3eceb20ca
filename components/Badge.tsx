import type { ReactNode } from "react";

export type BadgeVariant = "default" | "secondary" | "warning" | "success" | "info" | "destructive";

export function Badge(
  { variant = "default", children }: { variant?: BadgeVariant; children: ReactNode },
) {
  return <span className={`badge badge-${variant}`}>{children}</span>;
}
