import type { ClientCopy, ClientCopyPage } from "../../src/print/print_model.ts";
import { AddressLines, InfoList } from "./InfoList.tsx";
import { OptionNotesAndPrices } from "./OptionNotesAndPrices.tsx";
import { fitClientSheet } from "./sheet_fit.ts";

function Header(
  { copy, page, optionName }: { copy: ClientCopy; page?: ClientCopyPage; optionName?: string },
) {
  const { header } = copy;
  return (
    <header className="print-head print-client-head">
      <div className="print-brand">
        <img src={header.logoUrl} alt="" className="print-logo" />
        <span className="print-store">{header.storeName}</span>
      </div>
      <div className="print-title-block">
        <h2 className="print-title">EYEWEAR QUOTE</h2>
        {page && (
          <p className="print-option-name">
            {optionName ?? page.optionName}
            {page.isChoice && <span className="print-choice">Your choice</span>}
          </p>
        )}
        <p className="print-meta">
          <span>Quote # {header.quoteNumber}</span>
          <span>{header.date}</span>
          {page && <span>Page {page.pageNumber} of {page.pageCount}</span>}
        </p>
      </div>
    </header>
  );
}

function Footer({ footer, message }: { footer: ClientCopy["footer"]; message?: string }) {
  const contact = [footer.storeAddress, footer.storePhone, footer.storeEmail, footer.storeWebsite]
    .filter(Boolean);
  return (
    <footer className="print-foot">
      {contact.length > 0 && (
        <p className="print-contact">
          {contact.map((part) => <span key={part}>{part}</span>)}
        </p>
      )}
      {(message ?? footer.message) && (
        <p className="print-footer-message">{message ?? footer.message}</p>
      )}
    </footer>
  );
}

/**
 * The copy the client takes home: one sheet per option. Everything on it
 * comes from clientCopy(), which holds client-safe fields only.
 */
export function ClientCopySheets({ copy }: { copy: ClientCopy }) {
  if (copy.pages.length === 0) {
    return (
      <article className="print-sheet print-sheet-client" aria-label="Client copy">
        <Header copy={copy} />
        <p className="print-empty">{copy.emptyText}</p>
        <Footer footer={copy.footer} />
      </article>
    );
  }
  return (
    <>
      {copy.pages.map((page) => {
        // One sheet per option on paper: denser type, then shortened text.
        const fit = fitClientSheet(copy, page);
        return (
          <article
            key={page.optionId}
            className={`print-sheet print-sheet-client ${fit.density.className}`}
            data-fit="client"
            aria-label={`Client copy, page ${page.pageNumber} of ${page.pageCount}`}
          >
            <Header copy={copy} page={page} optionName={fit.optionName} />
            <div className="print-columns">
              <section className="print-section">
                <h3 className="print-section-title">Client Information</h3>
                <InfoList
                  rows={[
                    ["Name", fit.client.name],
                    ["Email", fit.client.email],
                    ["Phone", fit.client.phone],
                    ["Address", <AddressLines key="address" lines={fit.client.address} />],
                  ]}
                />
              </section>
              <section className="print-section">
                <h3 className="print-section-title">Quote Details</h3>
                <InfoList
                  rows={[
                    ["Option", fit.optionName],
                    ["Optician", copy.header.opticianName],
                    ["Status", copy.header.status],
                    ...(copy.validity ? [["Validity", copy.validity] as [string, string]] : []),
                  ]}
                />
              </section>
            </div>
            <OptionNotesAndPrices
              notes={fit.notes}
              fullNotes={page.notes}
              table={fit.table}
              fullPrices={page.prices}
              optionName={page.optionName}
            />
            <Footer footer={copy.footer} message={fit.footerMessage} />
          </article>
        );
      })}
    </>
  );
}
