import { useEffect, useState } from "react";
import { fitAllSheets } from "../components/print/fit_sheets.ts";
import { fitWorkOrders } from "../components/orders/fit_work_orders.ts";

export type PrintCopy = "client" | "internal";

export interface PrintControlsProps {
  initialCopy: PrintCopy;
  /**
   * Element ids of the server-rendered copies. Absent when the page holds one
   * copy only (the client copy handed out from the tablet): then there is
   * nothing to switch and no toggle.
   */
  copies?: Record<PrintCopy, string>;
  /** Open the print dialog as soon as the page (logo included) has loaded. */
  autoPrint?: boolean;
  /** The client copy of the client's chosen options alone, when they chose some but not all. */
  printChosenHref?: string;
}

const COPY_LABELS: Record<PrintCopy, string> = {
  client: "Client Copy",
  internal: "Internal Copy",
};

// Module scope, not a ref: StrictMode runs effects twice, and a second dialog
// right after the first would look like a bug to staff.
let autoPrinted = false;

/**
 * The only script on the print page. Both copies are already in the HTML, so
 * switching is a matter of which one is hidden; no request is made.
 */
export default function PrintControls(
  { initialCopy, copies, autoPrint, printChosenHref }: PrintControlsProps,
) {
  const [copy, setCopy] = useState<PrintCopy>(initialCopy);

  // First of the effects, so the sheets are fitted before an automatic print.
  useEffect(() => {
    const fit = () => {
      fitAllSheets();
      fitWorkOrders();
      document.documentElement.dataset.sheetsFitted = "true";
    };
    fit();
    // Again just before printing, should anything have changed the layout since.
    addEventListener("beforeprint", fit);
    return () => removeEventListener("beforeprint", fit);
  }, []);

  useEffect(() => {
    if (!copies) return;
    for (const [name, id] of Object.entries(copies)) {
      const el = document.getElementById(id);
      if (el) el.hidden = name !== copy;
    }
    // A reload or a shared link opens the copy staff were looking at.
    const url = new URL(location.href);
    if (copy === "internal") url.searchParams.set("copy", "internal");
    else url.searchParams.delete("copy");
    if (url.href !== location.href) history.replaceState(history.state, "", url);
  }, [copy, copies]);

  useEffect(() => {
    if (!autoPrint || autoPrinted) return;
    autoPrinted = true;
    // Printing before the logo has loaded would leave a hole in the header.
    if (document.readyState === "complete") globalThis.print();
    else addEventListener("load", () => globalThis.print(), { once: true });
  }, [autoPrint]);

  return (
    <div className="print-actions">
      {copies && (
        <div className="print-toggle" role="group" aria-label="Copy to print">
          {(Object.keys(COPY_LABELS) as PrintCopy[]).map((name) => (
            <button
              key={name}
              type="button"
              className="print-toggle-btn"
              aria-pressed={copy === name}
              aria-controls={copies[name]}
              onClick={() => setCopy(name)}
            >
              {COPY_LABELS[name]}
            </button>
          ))}
        </div>
      )}
      <button type="button" className="btn btn-primary" onClick={() => globalThis.print()}>
        Print
      </button>
      {printChosenHref && copy === "client" && (
        <a className="btn btn-outline" href={printChosenHref}>Print chosen only</a>
      )}
    </div>
  );
}
