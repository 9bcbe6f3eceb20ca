import type { ReactNode } from "react";

/**
 * The app's one disclosure: a native <details>, which opens and closes with a
 * click, Enter or Space without any script and tells assistive technology
 * whether it is open. Its summary carries the `chevron` class: a chevron drawn
 * by CSS that points down when closed and turns up when open (static/app.css
 * "Disclosures"). Buttons that show or hide a part of the page take the same
 * class beside aria-expanded, and so do the menus' buttons. The pages a
 * client holds, under their script budget, write the same markup themselves
 * (islands/OnlineAccept.tsx) rather than load this module as one more chunk.
 */
export function Disclosure(
  { summary, children, className, open }: {
    summary: ReactNode;
    children: ReactNode;
    className?: string;
    /** Open when first shown. */
    open?: boolean;
  },
) {
  return (
    <details className={className ? `disclosure ${className}` : "disclosure"} open={open}>
      <summary className="chevron">{summary}</summary>
      <div className="disclosure-body">{children}</div>
    </details>
  );
}
