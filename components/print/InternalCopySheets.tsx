import type {
  InternalCopy,
  InternalCopyPage,
  InternalPrescription,
} from "../../src/print/print_model.ts";
import { AddressLines, InfoList, type InfoRow, Notes } from "./InfoList.tsx";
import { OptionNotesAndPrices } from "./OptionNotesAndPrices.tsx";
import { fitInternalSheet } from "./sheet_fit.ts";
import { PrintedRxTable } from "../RxTableHead.tsx";

function Header(
  { copy, page, optionName }: { copy: InternalCopy; page?: InternalCopyPage; optionName?: string },
) {
  const { header } = copy;
  return (
    <header className="print-head print-internal-head">
      <div className="print-brand">
        <img src={header.logoUrl} alt="" className="print-logo" />
        <div className="print-title-block">
          <h2 className="print-title">INTERNAL QUOTE COPY</h2>
          <p className="print-meta">
            <span>{header.storeName}</span>
            <span>Client: {header.clientName}</span>
          </p>
        </div>
      </div>
      {page && (
        <p className="print-option-name">
          <span className="print-option-label">Option</span> {optionName ?? page.optionName}
        </p>
      )}
      <p className="print-meta print-meta-end">
        <span>Quote # {header.quoteNumber}</span>
        {page && <span>Page {page.pageNumber} of {page.pageCount}</span>}
      </p>
    </header>
  );
}

/** The latest prescription, both eyes and every value, as written. */
function PrescriptionBlock({ rx }: { rx: InternalPrescription }) {
  return (
    <section className="print-section print-rx">
      <h3 className="print-section-title">Prescription</h3>
      <p className="print-rx-meta">
        <span>Written {rx.written}</span>
        <span>by {rx.prescriber}</span>
        <span>
          Expires {rx.expires}
          {rx.expired && <strong className="print-rx-expired">EXPIRED</strong>}
        </span>
      </p>
      <PrintedRxTable eyes={rx.eyes} />
      {rx.notes && <p className="print-rx-notes">{rx.notes}</p>}
    </section>
  );
}

/**
 * The staff copy: one landscape sheet per chosen option, with the client's
 * details, measurements and internal notes on the left and the option on the
 * right.
 */
export function InternalCopySheets({ copy }: { copy: InternalCopy }) {
  if (copy.pages.length === 0) {
    return (
      <article className="print-sheet print-sheet-internal" aria-label="Internal copy">
        <Header copy={copy} />
        <p className="print-empty">{copy.emptyText}</p>
      </article>
    );
  }
  const { measurements, header } = copy;
  return (
    <>
      {copy.pages.map((page) => {
        // One landscape sheet per chosen option: denser type, then shortened text.
        const fit = fitInternalSheet(copy, page);
        const client = fit.client;
        const measurementRows: InfoRow[] = [
          ["PD Distance", measurements.pdDistance],
          ["PD Near", measurements.pdNear],
          ["SEG/OC", page.segOc],
          ...fit.extras,
        ];
        return (
          <article
            key={page.optionId}
            className={`print-sheet print-sheet-internal ${fit.density.className}`}
            data-fit="internal"
            aria-label={`Internal copy, page ${page.pageNumber} of ${page.pageCount}`}
          >
            <Header copy={copy} page={page} optionName={fit.optionName} />
            <div className="print-columns print-internal-columns">
              <div className="print-column">
                <section className="print-section">
                  <h3 className="print-section-title">Client Information</h3>
                  <InfoList
                    rows={[
                      ["Name", client.name],
                      ["Email", client.email],
                      ["Phone", client.phone],
                      ["Date of Birth", client.dob],
                      ["Address", <AddressLines key="address" lines={client.address} />],
                      ["SMS Consent", client.smsConsent],
                      ["Email Consent", client.emailConsent],
                      ["How Heard", client.heardHow],
                    ]}
                  />
                </section>
                <section className="print-section">
                  <h3 className="print-section-title">Measurements</h3>
                  <InfoList rows={measurementRows} />
                </section>
                {copy.prescription && <PrescriptionBlock rx={copy.prescription} />}
                <section className="print-section">
                  <h3 className="print-section-title">Quote Details</h3>
                  <InfoList
                    rows={[
                      ["Created", copy.createdDate],
                      ["Optician", header.opticianName],
                      ["Status", header.status],
                    ]}
                  />
                </section>
                <section className="print-section print-section-notes">
                  <h3 className="print-section-title">Internal Notes</h3>
                  <Notes text={fit.internalNotes} full={copy.internalNotes} />
                </section>
              </div>
              <div className="print-column">
                <OptionNotesAndPrices
                  notes={fit.notes}
                  fullNotes={page.notes}
                  table={fit.table}
                  fullPrices={page.prices}
                  optionName={page.optionName}
                />
              </div>
            </div>
          </article>
        );
      })}
    </>
  );
}
