// The builder's state: the last answer from the server, and the draft the
// optician is editing. The draft is only ever replaced by a successful save or
// a deliberate reload, so a failed call never loses what was typed.
import type { QuoteBundle, QuoteOptionView, SaveResult } from "../../src/quotes/views.ts";
import type { ClientMeasurementsView } from "../../src/clients/views.ts";
import {
  type DraftItem,
  type DraftOption,
  emptyItem,
  emptyOption,
  isTempId,
  normalizeAdjustment,
  optionTabLabel,
  saveProblems,
  subtotalDecimal,
} from "../../src/quotes/rules.ts";
import { parseCents } from "../../src/money/amounts.ts";
import { saveQuoteSchema } from "../../src/schemas/quote.ts";

export interface BuilderDraft {
  opticianName: string;
  internalNotes: string;
  options: DraftOption[];
}

export interface BuilderState {
  /** The last quote the server sent: status, client, measurements. */
  bundle: QuoteBundle;
  /** The version the next save claims to start from. */
  version: number;
  draft: BuilderDraft;
  /** `snapshot(draft)` as last loaded or saved: anything else is unsaved. */
  saved: string;
  activeId: string;
  /** A save was refused for invalid input: problems are re-checked on every change. */
  attempted: boolean;
  /** The server refused a save as stale (409): why, until a save goes through. */
  stale: string | null;
}

// ---- From the server ----

export function draftOption(view: QuoteOptionView): DraftOption {
  const items: DraftItem[] = view.items.map((i) => ({ ...i }));
  // A new quote's first option has no items yet; the form always shows a frame.
  if (!items.some((i) => i.kind === "FRAME")) items.unshift(emptyItem("FRAME"));
  return {
    id: view.id,
    label: view.label,
    notes: view.notes,
    isChosen: view.isChosen,
    shipping: view.shipping,
    adjustmentAmount: view.adjustmentAmount,
    adjustmentReason: view.adjustmentReason,
    items,
    segOc: view.frameMeasurements?.segOc ?? "",
  };
}

export function draftFromBundle(bundle: QuoteBundle): BuilderDraft {
  const options = bundle.options.map(draftOption);
  return {
    opticianName: bundle.quote.opticianName,
    internalNotes: bundle.quote.internalNotes,
    // A fixed id, so the server's render and the browser's hydration agree.
    options: options.length ? options : [{ ...emptyOption(), id: "temp-first" }],
  };
}

export function initialState(bundle: QuoteBundle): BuilderState {
  const draft = draftFromBundle(bundle);
  return {
    bundle,
    version: bundle.quote.version,
    draft,
    // A quote without any option gets one here; it still has to be saved.
    saved: bundle.options.length ? snapshot(draft) : "",
    activeId: draft.options[0].id,
    attempted: false,
    stale: null,
  };
}

/**
 * What counts as a change. Item ids are left out (the server renumbers items
 * on every save) and so is the SEG/OC of a saved option, which is written on
 * each edit without a save.
 */
export function snapshot(draft: BuilderDraft): string {
  return JSON.stringify([
    draft.opticianName,
    draft.internalNotes,
    draft.options.map((o) => [
      o.id,
      o.label,
      o.notes,
      o.isChosen,
      o.shipping,
      o.adjustmentAmount,
      o.adjustmentReason,
      isTempId(o.id) ? o.segOc : null,
      o.items.map((i) => [i.kind, i.name, i.sku, i.unitPrice, i.qty, i.notes, i.catalogId]),
    ]),
  ]);
}

export const isDirty = (state: BuilderState) => snapshot(state.draft) !== state.saved;

// ---- To the server ----

/** A typed discount keeps its sign rule even when saved before leaving the field. */
function adjustmentForSave(text: string): string {
  return text.trim() === "" || parseCents(text) !== undefined ? normalizeAdjustment(text) : text;
}

/** PUT /api/quotes/{id}: the whole quote, from the version it was loaded at. */
export function savePayload(version: number, draft: BuilderDraft) {
  return {
    version,
    opticianName: draft.opticianName,
    internalNotes: draft.internalNotes,
    options: draft.options.map((o) => ({
      id: o.id,
      label: o.label,
      notes: o.notes,
      isChosen: o.isChosen,
      shipping: o.shipping,
      adjustmentAmount: adjustmentForSave(o.adjustmentAmount),
      adjustmentReason: o.adjustmentReason,
      subtotal: subtotalDecimal(o.items),
      items: o.items.map((i) => ({
        kind: i.kind,
        name: i.name,
        sku: i.sku,
        unitPrice: i.unitPrice,
        qty: i.qty,
        notes: i.notes,
        catalogId: i.catalogId,
      })),
      segOc: o.segOc,
    })),
  };
}

export interface BuilderProblem {
  /** Where it shows: "opticianName", "options.{i}.frame", "options.{i}.items.{j}.unitPrice"… */
  field: string;
  /** For the toast: names the option. */
  message: string;
  /** Under the field. */
  inline: string;
}

/**
 * The spec's save check first (its messages, in its order), then the same
 * schema the server parses with, so a price it would refuse is caught here,
 * under the field, instead of as a 400.
 */
export function draftProblems(version: number, draft: BuilderDraft): BuilderProblem[] {
  const problems: BuilderProblem[] = saveProblems(draft).map((p) => ({ ...p, inline: p.message }));
  const parsed = saveQuoteSchema.safeParse(savePayload(version, draft));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join(".");
      if (problems.some((p) => p.field === field)) continue;
      const index = issue.path[0] === "options" ? issue.path[1] : undefined;
      const option = typeof index === "number" ? draft.options[index] : undefined;
      problems.push({
        field,
        message: option
          ? `${optionTabLabel(option, index as number)}: ${issue.message}`
          : issue.message,
        inline: issue.message,
      });
    }
  }
  return problems;
}

/** The option index a problem belongs to, if any. */
export function problemOption(problem: Pick<BuilderProblem, "field">): number | undefined {
  const m = /^options\.(\d+)\./.exec(problem.field);
  return m ? Number(m[1]) : undefined;
}

// ---- Changes ----

export type BuilderAction =
  | { type: "draft"; update: (draft: BuilderDraft) => BuilderDraft }
  | { type: "option"; id: string; update: (option: DraftOption) => DraftOption }
  | { type: "addOption" }
  | { type: "deleteOption"; id: string }
  | { type: "select"; id: string }
  | { type: "attempted" }
  | { type: "saved"; result: SaveResult; sent: BuilderDraft }
  | { type: "stale"; message: string }
  | {
    type: "server";
    bundle: QuoteBundle;
    /** The version the quote has if only our own call changed it since we loaded it. */
    expectedVersion: number;
    discardEdits?: boolean;
  }
  | { type: "measurements"; measurements: ClientMeasurementsView };

function keepActive(activeId: string, options: DraftOption[], idMap: Record<string, string> = {}) {
  const id = idMap[activeId] ?? activeId;
  return options.some((o) => o.id === id) ? id : options[0].id;
}

function replaceAll(state: BuilderState, bundle: QuoteBundle, idMap?: Record<string, string>) {
  const draft = draftFromBundle(bundle);
  return {
    ...state,
    bundle,
    version: bundle.quote.version,
    draft,
    saved: snapshot(draft),
    activeId: keepActive(state.activeId, draft.options, idMap),
    attempted: false,
    stale: null,
  };
}

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case "draft":
      return { ...state, draft: action.update(state.draft) };
    case "option":
      return {
        ...state,
        draft: {
          ...state.draft,
          options: state.draft.options.map((o) => (o.id === action.id ? action.update(o) : o)),
        },
      };
    case "addOption": {
      const option = emptyOption();
      return {
        ...state,
        draft: { ...state.draft, options: [...state.draft.options, option] },
        activeId: option.id,
      };
    }
    case "deleteOption": {
      const options = state.draft.options;
      const index = options.findIndex((o) => o.id === action.id);
      if (index < 0 || options.length <= 1) return state;
      const rest = options.filter((o) => o.id !== action.id);
      const activeId = state.activeId === action.id
        ? rest[Math.min(index, rest.length - 1)].id
        : state.activeId;
      return { ...state, draft: { ...state.draft, options: rest }, activeId };
    }
    case "select":
      return { ...state, activeId: action.id };
    case "attempted":
      return { ...state, attempted: true };
    case "saved": {
      const { result, sent } = action;
      if (state.draft === sent) return replaceAll(state, result, result.idMap);
      // Typed while the save was on its way: keep it, under the new ids, still unsaved.
      const fresh = draftFromBundle(result);
      const options = state.draft.options.map((o) => ({ ...o, id: result.idMap[o.id] ?? o.id }));
      return {
        ...state,
        bundle: result,
        version: result.quote.version,
        draft: { ...state.draft, options },
        saved: snapshot(fresh),
        activeId: keepActive(state.activeId, options, result.idMap),
        attempted: false,
        stale: null,
      };
    }
    case "stale":
      return { ...state, stale: action.message };
    case "server": {
      const { bundle, expectedVersion } = action;
      if (action.discardEdits || !isDirty(state)) return replaceAll(state, bundle);
      // Unsaved edits stay. The new version is taken only when nobody else
      // wrote in between; otherwise the next save is refused as stale, as it
      // should be, instead of overwriting their change.
      return {
        ...state,
        bundle,
        version: bundle.quote.version === expectedVersion ? expectedVersion : state.version,
      };
    }
    case "measurements":
      return {
        ...state,
        bundle: { ...state.bundle, clientMeasurements: action.measurements },
      };
  }
}
