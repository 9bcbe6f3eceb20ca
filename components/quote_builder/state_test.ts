import { describe, it } from "node:test";
import { expect } from "expect";
import type { QuoteBundle, QuoteOptionView, SaveResult } from "../../src/quotes/views.ts";
import {
  type BuilderDraft,
  builderReducer,
  type BuilderState,
  draftProblems,
  initialState,
  isDirty,
  savePayload,
  snapshot,
} from "./state.ts";

const OPTION_ID = "5b0d8f57-6f7e-4a51-9d7c-2f6f8c1f4a01";

function optionView(init: Partial<QuoteOptionView> = {}): QuoteOptionView {
  return {
    id: OPTION_ID,
    label: "",
    notes: "",
    isChosen: false,
    shipping: "0.00",
    adjustmentAmount: "0.00",
    adjustmentReason: "",
    subtotal: "189.00",
    items: [{
      id: "item-1",
      kind: "FRAME",
      name: "Ray-Ban",
      sku: "RB5154",
      unitPrice: "189.00",
      qty: 1,
      notes: "",
      catalogId: null,
    }],
    frameMeasurements: { segOc: "18" },
    ...init,
  };
}

function bundle(options: QuoteOptionView[] = [optionView()], version = 3): QuoteBundle {
  return {
    quote: {
      id: "0b8e1f0e-1c77-4e2b-8a36-0e9d7c0c0001",
      quoteNumber: "Q-000001",
      clientId: "c1",
      clientName: "Ada Lovelace",
      opticianName: "Dana",
      status: "ACTIVE",
      internalNotes: "",
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-01-01T00:00:00.000Z",
      expiresAt: null,
      isExpired: false,
      isClosed: false,
      closureReason: null,
      footerMessage: null,
      version,
      storeId: "s1",
    },
    client: {
      id: "c1",
      firstName: "Ada",
      middleName: null,
      lastName: "Lovelace",
      email: null,
      mobilePhone: null,
      homePhone: null,
      dob: null,
      address1: null,
      address2: null,
      city: null,
      state: null,
      zip: null,
      smsConsent: false,
      emailConsent: false,
      heardHow: null,
    },
    options,
    clientMeasurements: {
      pdBinocular: "63",
      pdNear: "60",
      measurementsComplete: true,
      extras: {},
    },
    frameMeasurements: Object.fromEntries(options.map((o) => [o.id, o.frameMeasurements])),
  };
}

const editLabel = (state: BuilderState, label: string) =>
  builderReducer(state, { type: "option", id: state.activeId, update: (o) => ({ ...o, label }) });

describe("builder state", () => {
  it("loads clean, and a new quote's empty option gets a frame to fill", () => {
    const state = initialState(bundle([optionView({ items: [] })]));
    expect(isDirty(state)).toBe(false);
    expect(state.draft.options[0].items.map((i) => i.kind)).toEqual(["FRAME"]);
    expect(state.draft.options[0].segOc).toBe("18");
  });

  it("counts edits as unsaved, but not a saved option's SEG/OC or the server's item ids", () => {
    const state = initialState(bundle());
    const segOc = builderReducer(state, {
      type: "option",
      id: OPTION_ID,
      update: (o) => ({ ...o, segOc: "20", items: o.items.map(({ id: _, ...i }) => i) }),
    });
    expect(isDirty(segOc)).toBe(false);
    expect(isDirty(editLabel(state, "Sun"))).toBe(true);
    // Undoing an edit by hand is not a change.
    expect(isDirty(editLabel(editLabel(state, "Sun"), ""))).toBe(false);
  });

  it("an added option is unsaved, SEG/OC included; removing it again is clean", () => {
    const state = initialState(bundle());
    const added = builderReducer(state, { type: "addOption" });
    expect(added.activeId).toMatch(/^temp-/);
    const removed = builderReducer(added, { type: "deleteOption", id: added.activeId });
    expect(isDirty(removed)).toBe(false);
    expect(removed.activeId).toBe(OPTION_ID);
    // The last option stays.
    expect(builderReducer(removed, { type: "deleteOption", id: OPTION_ID })).toBe(removed);
  });

  it("sends the whole quote: subtotal from the items, a typed discount made negative", () => {
    const state = initialState(bundle());
    const draft: BuilderDraft = {
      ...state.draft,
      options: [{
        ...state.draft.options[0],
        adjustmentAmount: "25",
        shipping: "12.5",
        items: [...state.draft.options[0].items, {
          kind: "OTHER",
          name: "Case",
          sku: null,
          unitPrice: "15",
          qty: 2,
          notes: "",
          catalogId: null,
          id: "row-1",
        }],
      }],
    };
    const payload = savePayload(state.version, draft);
    expect(payload.version).toBe(3);
    expect(payload.options[0]).toMatchObject({
      id: OPTION_ID,
      adjustmentAmount: "-25.00",
      shipping: "12.5",
      subtotal: "219.00",
      segOc: "18",
    });
    // Local row keys stay local.
    expect(payload.options[0].items.every((i) => !("id" in i))).toBe(true);
  });

  it("finds the spec's problems first, then what the server's schema would refuse", () => {
    const state = initialState(bundle());
    const draft: BuilderDraft = {
      ...state.draft,
      opticianName: " ",
      options: [{
        ...state.draft.options[0],
        items: state.draft.options[0].items.map((i) => ({ ...i, unitPrice: "abc" })),
      }],
    };
    expect(draftProblems(state.version, draft)).toEqual([
      {
        field: "opticianName",
        message: "Optician's Name is required",
        inline: "Optician's Name is required",
      },
      {
        field: "options.0.items.0.unitPrice",
        message: "RB5154: Price must be a number like 12.50",
        inline: "Price must be a number like 12.50",
      },
    ]);
  });

  it("says before saving when the option's subtotal is more than a quote can hold", () => {
    const state = initialState(bundle());
    const option = state.draft.options[0];
    const lot = { ...option.items[0], kind: "OTHER" as const, unitPrice: "999999.99", qty: 999 };
    const draft: BuilderDraft = {
      ...state.draft,
      options: [{ ...option, items: [...option.items, ...Array.from({ length: 11 }, () => lot)] }],
    };
    expect(draftProblems(state.version, draft).map((p) => p.field)).toEqual([
      "options.0.subtotal",
    ]);
  });

  it("after a save, takes the answer, keeps the open option through idMap", () => {
    const start = builderReducer(initialState(bundle()), { type: "addOption" });
    const tempId = start.activeId;
    const sent = start.draft;
    const savedId = "5b0d8f57-6f7e-4a51-9d7c-2f6f8c1f4a02";
    const result: SaveResult = {
      ...bundle([optionView(), optionView({ id: savedId, items: [] })], 4),
      idMap: { [tempId]: savedId },
    };
    const done = builderReducer(start, { type: "saved", result, sent });
    expect(done.activeId).toBe(savedId);
    expect(done.version).toBe(4);
    expect(isDirty(done)).toBe(false);

    // Typed while the save was on its way: kept, moved to the new id, still unsaved.
    const typed = editLabel(start, "Typed meanwhile");
    const kept = builderReducer(typed, { type: "saved", result, sent });
    expect(kept.draft.options[1]).toMatchObject({ id: savedId, label: "Typed meanwhile" });
    expect(kept.version).toBe(4);
    expect(isDirty(kept)).toBe(true);
  });

  it("a stale refusal keeps every edit and the old version", () => {
    const typed = editLabel(initialState(bundle()), "Mine");
    const stale = builderReducer(typed, { type: "stale", message: "changed elsewhere" });
    expect(stale.stale).toBe("changed elsewhere");
    expect(stale.draft).toBe(typed.draft);
    expect(stale.version).toBe(3);
  });

  it("a status change keeps unsaved edits, and the version only when nobody else wrote", () => {
    const typed = editLabel(initialState(bundle()), "Mine");
    const ours = builderReducer(typed, {
      type: "server",
      bundle: bundle(undefined, 4),
      expectedVersion: 4,
    });
    expect(ours.version).toBe(4);
    expect(ours.draft).toBe(typed.draft);
    const theirs = builderReducer(typed, {
      type: "server",
      bundle: bundle(undefined, 6),
      expectedVersion: 4,
    });
    // The next save is refused as stale instead of overwriting their change.
    expect(theirs.version).toBe(3);
    expect(theirs.draft).toBe(typed.draft);
    // Nothing unsaved: simply the latest.
    const clean = builderReducer(initialState(bundle()), {
      type: "server",
      bundle: bundle([optionView({ label: "From tablet" })], 6),
      expectedVersion: 4,
    });
    expect(clean.version).toBe(6);
    expect(clean.draft.options[0].label).toBe("From tablet");
    expect(snapshot(clean.draft)).toBe(clean.saved);
  });
});
