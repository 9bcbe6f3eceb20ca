// The builder's Measurements card: the client's PD (edited in a dialog) and
// the SEG/OC of the option on screen, saved as it is typed.
import { Badge } from "../Badge.tsx";
import type { ClientMeasurementsView } from "../../src/clients/views.ts";
import type { CarryOverView } from "../../src/quotes/carry_over.ts";
import { isTempId } from "../../src/quotes/rules.ts";
import { CarryOverNotice } from "./CarryOverNotice.tsx";
import { pdText } from "./format.tsx";
import { invalidProps } from "./fields.tsx";
import type { SegOcStatus } from "./use_seg_oc_sync.ts";

const SEG_OC_TEXT: Record<SegOcStatus, string> = {
  waiting: "Saving...",
  sending: "Saving...",
  saved: "Saved",
  failed: "Not saved yet: it will be saved with the quote.",
};

export function MeasurementsCard(
  {
    quoteId,
    carryOver,
    measurements,
    readOnly,
    option,
    optionIndex,
    optionTitle,
    segOcError,
    segOcStatus,
    onEdit,
    onSegOc,
  }: {
    quoteId: string;
    carryOver: CarryOverView | null;
    measurements: ClientMeasurementsView;
    readOnly: boolean;
    /** The option on screen, whose SEG/OC the field edits. */
    option: { id: string; segOc: string };
    optionIndex: number;
    optionTitle: string;
    segOcError: string | undefined;
    /** Where the saving of this option's SEG/OC stands, when it has begun. */
    segOcStatus: SegOcStatus | undefined;
    onEdit: () => void;
    onSegOc: (value: string) => void;
  },
) {
  const unsavedOption = isTempId(option.id);
  return (
    <section className="card qb-card" aria-labelledby="qb-measurements-title">
      <div className="qb-section-head">
        <h2 id="qb-measurements-title">Measurements</h2>
        {measurements.measurementsComplete
          ? <Badge variant="success">Complete</Badge>
          : <Badge variant="warning">Incomplete</Badge>}
      </div>
      <CarryOverNotice quoteId={quoteId} initial={carryOver} readOnly={readOnly} />
      <div className="qb-measurements">
        {/* A <dl> may hold only its groups: the Edit button sits beside it. */}
        <div className="qb-pd">
          <dl className="qb-pd-values">
            <div>
              <dt>
                <abbr title="Pupillary distance, distance">PD D</abbr>
              </dt>
              <dd data-testid="pd-distance">{pdText(measurements.pdBinocular)}</dd>
            </div>
            <div>
              <dt>
                <abbr title="Pupillary distance, near">PD N</abbr>
              </dt>
              <dd data-testid="pd-near">{pdText(measurements.pdNear)}</dd>
            </div>
          </dl>
          <button
            type="button"
            className="btn btn-outline btn-sm qb-pd-edit"
            onClick={onEdit}
            aria-label="Edit client measurements"
          >
            Edit
          </button>
        </div>
        <div className="field qb-segoc">
          <label htmlFor="qb-segoc">
            SEG/OC <span className="qb-label-note">for {optionTitle}</span>
          </label>
          <input
            id="qb-segoc"
            data-field={`options.${optionIndex}.segOc`}
            value={option.segOc}
            maxLength={50}
            autoComplete="off"
            disabled={readOnly}
            onChange={(e) => onSegOc(e.target.value)}
            {...invalidProps("qb-segoc", segOcError, "qb-segoc-state")}
          />
          <p id="qb-segoc-state" className="hint" aria-live="polite">
            {readOnly
              ? ""
              : unsavedOption
              ? "Saved with the quote."
              : segOcStatus
              ? SEG_OC_TEXT[segOcStatus]
              : "Saved as you type."}
          </p>
          {segOcError && <p id="qb-segoc-error" className="field-error">{segOcError}</p>}
        </div>
      </div>
    </section>
  );
}
