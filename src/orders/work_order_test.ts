import { describe, it } from "node:test";
import { expect } from "expect";
import type { JobStatus } from "../../db/schema.ts";
import type { JobView } from "./views.ts";
import { STORE_FALLBACKS } from "../settings/settings.ts";
import { workOrderChoiceOf, workOrderJobs, workOrderSheet } from "./work_order.ts";
import { AWAITING_LAB, isForLab, JOB_STATUSES } from "./rules.ts";

const branding = { ...STORE_FALLBACKS, storeWebsite: "" };
const long = (word: string, n: number) => `${word} `.repeat(n).slice(0, n);

function job(status: JobStatus, id: string = status, extra: Partial<JobView> = {}): JobView {
  return {
    id,
    jobNumber: `J-${id}`,
    optionLabel: "RB-2000",
    optionName: "Everyday",
    pickupStoreId: "store",
    lab: { id: "lab", name: "Lab", email: null, phone: null, accountNumber: null },
    status,
    items: [
      {
        kind: "FRAME",
        name: "Ray-Ban Clubmaster",
        sku: "RB-2000",
        unitPrice: "1",
        qty: 1,
        notes: "",
      },
      ...[1, 2, 3].map((n) => ({
        kind: "ADDON" as const,
        name: long(`Add-on ${n}`, 200),
        sku: null,
        unitPrice: "1",
        qty: 1,
        notes: "",
      })),
    ],
    shipping: "0.00",
    adjustmentAmount: "0.00",
    total: "10.00",
    measurements: {
      pdDistance: "63",
      pdNear: "60",
      segOc: "18",
      extras: { "Vertex distance": "12 mm", Bridge: "18" },
    },
    prescription: null,
    notes: long("Lab note", 2000),
    orderedAt: "2026-11-27T16:00:00.000Z",
    promisedDate: "2026-12-02",
    remakeCount: 0,
    readyAt: null,
    pickedUpAt: null,
    clientNotifiedAt: null,
    isLate: false,
    version: 1,
    events: [],
    nextSteps: [],
    ...extra,
  };
}

describe("which jobs a work order holds", () => {
  const jobs = JOB_STATUSES.map((s) => job(s));

  it("by default the jobs the lab must make: not cancelled, not picked up", () => {
    expect(workOrderJobs(jobs).map((j) => j.status)).toEqual([
      "ORDERED",
      "SENT_TO_LAB",
      "RECEIVED",
      "CHECKED",
      "READY",
      "REMAKE",
    ]);
    expect(JOB_STATUSES.filter(isForLab)).toEqual(workOrderJobs(jobs).map((j) => j.status));
    // "E-mail to Lab" ticks only those not at the lab yet.
    expect(AWAITING_LAB).toEqual(["ORDERED", "REMAKE"]);
  });

  it("every job when asked, or the ones named, whatever their status", () => {
    expect(workOrderJobs(jobs, workOrderChoiceOf({ all: "1" }))).toHaveLength(8);
    expect(workOrderJobs(jobs, workOrderChoiceOf({ job: "CANCELLED" })).map((j) => j.id))
      .toEqual(["CANCELLED"]);
    expect(workOrderChoiceOf({})).toEqual({ all: false });
  });
});

describe("a work order sheet", () => {
  it("prints every note and item whole, the order's notes and the prescription's too", () => {
    const rx = {
      id: "rx",
      clientId: "c",
      dateWritten: "2026-01-15",
      prescriber: "Dr. Long",
      expiresOn: null,
      notes: long("Rx note", 2000),
      rightEye: { sphere: "-2.25", cylinder: null, axis: null, add: null, prism: null },
      leftEye: { sphere: "-2.00", cylinder: null, axis: null, add: null, prism: null },
      createdAt: "",
      updatedAt: "",
    };
    const j = job("ORDERED", "a", { prescription: rx });
    const sheet = workOrderSheet(
      j,
      {
        client: { id: "c", firstName: "Ana", lastName: "Ruiz", email: null },
        order: { notes: long("Order note", 2000) },
      },
      branding,
    );
    expect(sheet.notes).toBe(j.notes.trim());
    expect(sheet.notes.length).toBeGreaterThan(1990);
    expect(sheet.orderNotes.length).toBeGreaterThan(1990);
    expect(sheet.rx?.notes.length).toBeGreaterThan(1990);
    const addOns = sheet.lens.find(([label]) => label === "Add-ons")![1];
    for (const item of j.items.filter((i) => i.kind === "ADDON")) {
      expect(addOns).toContain(item.name.trim());
    }
    expect(JSON.stringify(sheet)).not.toContain("continued in the system");
    // Every measurement the store took: frame sizes with the frame, the rest with the PD.
    expect(sheet.frame).toContainEqual(["Bridge", "18"]);
    expect(sheet.pd).toContainEqual(["Vertex distance", "12 mm"]);
    expect(sheet.band).toBeNull();
  });

  it("marks a cancelled or picked-up job not to make, saying who and why", () => {
    const cancelled = job("CANCELLED", "c", {
      events: [{
        at: "2026-11-28T10:00:00.000Z",
        fromStatus: "ORDERED",
        toStatus: "CANCELLED",
        reason: "Client changed her mind",
        actor: "Maria",
      }],
    });
    const bundle = {
      client: { id: "c", firstName: "Ana", lastName: "Ruiz", email: null },
      order: { notes: "" },
    };
    expect(workOrderSheet(cancelled, bundle, branding).band).toEqual({
      title: "CANCELLED — do not make",
      detail: "Cancelled on Nov 28, 2026 by Maria: Client changed her mind.",
      watermark: "CANCELLED",
    });
    expect(workOrderSheet(job("PICKED_UP"), bundle, branding).band).toMatchObject({
      title: "PICKED UP — do not make",
      watermark: "PICKED UP",
    });
  });
});
