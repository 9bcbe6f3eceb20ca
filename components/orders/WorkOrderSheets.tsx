// The lab's work order: one sheet per job, on A4 or Letter (the page's
// named @page), with the job number as text and as a QR code. Every text is
// whole: the page's script (fit_work_orders.ts) sets each sheet in the
// largest type at which it fits one page; one that does not fit even in the
// smallest continues on the next page, where the header (a table head, which
// the browser's print repeats on every page) says again which job it is.
import { InfoList } from "../print/InfoList.tsx";
import { PrintedRxTable } from "../RxTableHead.tsx";
import { densityClass } from "../../src/orders/work_order_density.ts";
import {
  NO_NOTES,
  type Paper,
  WORK_ORDER_TITLES as T,
  type WorkOrderSheet,
} from "../../src/orders/work_order.ts";

function Head({ s }: { s: WorkOrderSheet }) {
  return (
    <>
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
      {s.band && (
        <div className="work-order-band" role="note" data-testid="work-order-band">
          <p>
            <strong className="work-order-band-title">{s.band.title}</strong>{" "}
            <span className="work-order-band-detail">{s.band.detail}</span>
          </p>
          <p className="work-order-watermark" aria-hidden="true">{s.band.watermark}</p>
        </div>
      )}
    </>
  );
}

/** A free text as written (line breaks kept), whole. */
function WholeNotes({ text }: { text: string }) {
  return <p className="print-notes work-order-notes">{text || NO_NOTES}</p>;
}

export function WorkOrderSheets(
  { sheets, paper, level = 0 }: { sheets: WorkOrderSheet[]; paper: Paper; level?: number },
) {
  return (
    <>
      {sheets.map((s) => (
        <article
          key={s.jobNumber}
          className={`print-sheet print-sheet-work-order print-work-order-${paper} ${
            densityClass(level)
          }${s.band ? " work-order-void" : ""}`}
          data-work-order-fit={paper}
          aria-label={`Work order ${s.jobNumber}${s.band ? ` (${s.band.title})` : ""}`}
        >
          <table className="work-order-frame" role="presentation">
            <thead>
              <tr>
                <td>
                  <Head s={s} />
                </td>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>
                  <div className="print-columns">
                    <section className="print-section">
                      <h3 className="print-section-title">{T.job}</h3>
                      <InfoList
                        rows={[
                          ["Client", s.clientName],
                          ["Ordered", s.orderedDate],
                          ["Promised", s.promisedDate],
                        ]}
                      />
                    </section>
                    <section className="print-section">
                      <h3 className="print-section-title">{T.lab}</h3>
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
                    <h3 className="print-section-title">{T.lenses}</h3>
                    <InfoList rows={s.lens} />
                  </section>
                  <section className="print-section print-rx">
                    <h3 className="print-section-title">{T.rx}</h3>
                    {s.rx
                      ? (
                        <>
                          <p className="print-rx-meta">
                            <span>Written {s.rx.written}</span>
                            <span>by {s.rx.prescriber}</span>
                          </p>
                          <PrintedRxTable eyes={s.rx.eyes} />
                          {s.rx.notes && (
                            <p className="print-notes work-order-rx-notes">
                              <span className="work-order-label">Prescription notes:</span>{" "}
                              {s.rx.notes}
                            </p>
                          )}
                        </>
                      )
                      : <p className="print-notes">No prescription on file for this job.</p>}
                  </section>
                  <div className="print-columns">
                    <section className="print-section">
                      <h3 className="print-section-title">{T.frame}</h3>
                      <InfoList rows={s.frame} />
                    </section>
                    <section className="print-section">
                      <h3 className="print-section-title">{T.measurements}</h3>
                      <InfoList rows={s.pd} />
                    </section>
                  </div>
                  <section className="print-section print-section-notes">
                    <h3 className="print-section-title">{T.notes}</h3>
                    <WholeNotes text={s.notes} />
                  </section>
                  {s.orderNotes && (
                    <section className="print-section print-section-notes">
                      <h3 className="print-section-title">{T.orderNotes}</h3>
                      <WholeNotes text={s.orderNotes} />
                    </section>
                  )}
                </td>
              </tr>
            </tbody>
          </table>
        </article>
      ))}
    </>
  );
}
