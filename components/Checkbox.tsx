import type { InputHTMLAttributes, ReactNode } from "react";

/**
 * The app's one checkbox: a real <input type="checkbox"> drawn at one size
 * everywhere (24×24 CSS px, static/app.css "Checkboxes and radios") inside
 * its label, which is the tap target (at least 44 px high). `className` adds
 * a variant (`checkbox-card`: a bordered box, as the consents and add-ons
 * are) or a place's own spacing; the box itself never changes. The pages a
 * client holds, under their script budget, write the same markup themselves
 * (components/ConsentOption.tsx, islands/OnlineAccept.tsx) rather than load
 * this module as one more chunk.
 */
export function Checkbox(
  { label, className, ...input }:
    & { label: ReactNode; className?: string }
    & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "className">,
) {
  return (
    <label className={className ? `checkbox ${className}` : "checkbox"}>
      <input type="checkbox" {...input} />
      <span className="checkbox-label">{label}</span>
    </label>
  );
}
