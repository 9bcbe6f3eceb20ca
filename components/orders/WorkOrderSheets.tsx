// The lab's work order: one sheet per job, on A4 or Letter (the page's
// named @page), with the job number as text and as a QR code.
import { InfoList, Notes } from "../print/InfoList.tsx";
import { PrintedRxTable } from "../RxTableHead.tsx";
import type { Paper, WorkOrderSheet } from "../../src/orders/work_order.ts";

export function WorkOrderSheets({ sheets, paper }: { sheets: WorkOrderSheet[]; paper: Paper }) {
  return (
    <>
      {sheets.map((s) => (
        <article
          key={s.jobNumber}
          className={`print-sheet print-sheet-work-order print-work-order-${paper}`}
          aria-label={`Work order ${s.jobNumber}`}
        >
          <header className="print-head work-order-head">
            <div className="print-brand">
              <img src={s.logoUrl} alt="" className="print-logo" />
              <div className="print-title-block">
                <h2 className="print-title">LAB WORK ORDER</h2>
                <p className="print-meta">
                  <span>{s.storeName}</span>
                  <span>{s.storePhone}</span>
                </p>
              </div>
            </div>
            <div className="work-order-number">
              <p className="work-order-job" data-testid="work-order-job">{s.jobNumber}</p>
              {s.remake && <p className="work-order-remake">{s.remake}</p>}
            </div>
            <svg
              className="work-order-qr"
              viewBox={`-2 -2 ${s.qrSize + 4} ${s.qrSize + 4}`}
              role="img"
              aria-label={`QR code of ${s.jobNumber}`}
              shapeRendering="crispEdges"
            >
              <rect x="-2" y="-2" width={s.qrSize + 4} height={s.qrSize + 4} fill="#fff" />
              <path d={s.qrPath} fill="#000" />
            </svg>
          </header>
          <div className="print-columns">
            <section className="print-section">
              <h3 className="print-section-title">Job</h3>
              <InfoList
                rows={[
                  ["Client", s.clientName],
                  ["Ordered", s.orderedDate],
                  ["Promised", s.promisedDate],
                ]}
              />
            </section>
            <section className="print-section">
              <h3 className="print-section-title">Lab</h3>
              <InfoList
                rows={[
                  ["Lab", s.lab.name],
                  ["Phone", s.lab.phone || "—"],
                  ["Account", s.lab.accountNumber || "—"],
                ]}
              />
            </section>
          </div>
          <section className="print-section">
            <h3 className="print-section-title">Lenses</h3>
            <InfoList rows={s.lens} />
          </section>
          <section className="print-section print-rx">
            <h3 className="print-section-title">Prescription</h3>
            {s.rx
              ? (
                <>
                  <p className="print-rx-meta">
                    <span>Written {s.rx.written}</span>
                    <span>by {s.rx.prescriber}</span>
                  </p>
                  <PrintedRxTable eyes={s.rx.eyes} />
                </>
              )
              : <p className="print-notes">No prescription on file for this job.</p>}
          </section>
          <div className="print-columns">
            <section className="print-section">
              <h3 className="print-section-title">Frame</h3>
              <InfoList rows={s.frame} />
            </section>
            <section className="print-section">
              <h3 className="print-section-title">Measurements</h3>
              <InfoList rows={s.pd} />
            </section>
          </div>
          <section className="print-section print-section-notes">
            <h3 className="print-section-title">Job Notes</h3>
            <Notes text={s.notes} />
          </section>
        </article>
      ))}
    </>
  );
}
