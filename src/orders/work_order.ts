// What a lab work order shows, one sheet per job: every text cut to a length
// that keeps the sheet on one page of A4 or Letter whatever the data (the
// rest is "continued in the system", as on the quote copies), so the page
// layout never has to guess.
import { encode } from "uqr";
import { clipText, shortenName } from "../print/print_model.ts";
import { formatAxis, formatPower, formatPrism } from "../prescriptions/rules.ts";
import type { Branding } from "../settings/settings.ts";
import type { ItemKind } from "../../db/schema.ts";
import type { JobItem, JobView, OrderBundle } from "./views.ts";

export type Paper = "a4" | "letter";
export const PAPERS: Paper[] = ["letter", "a4"];

/** Longest texts a sheet shows (characters). */
export const WORK_ORDER_LIMITS = {
  name: 60,
  line: 70,
  details: 60,
  notes: 400,
  extras: 3,
};

export interface WorkOrderEye {
  eye: string;
  sphere: string;
  cylinder: string;
  axis: string;
  add: string;
  prism: string;
}

export interface WorkOrderSheet {
  jobNumber: string;
  /** The QR code's dark modules as one SVG path, in a square of `qrSize` modules. */
  qrPath: string;
  qrSize: number;
  storeName: string;
  storePhone: string;
  logoUrl: string;
  clientName: string;
  lab: { name: string; phone: string; accountNumber: string };
  orderedDate: string;
  promisedDate: string;
  remake: string;
  frame: Array<[string, string]>;
  lens: Array<[string, string]>;
  rx: { written: string; prescriber: string; eyes: WorkOrderEye[] } | null;
  pd: Array<[string, string]>;
  notes: string;
}

const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const day = (date: string) => DAY.format(new Date(`${date.slice(0, 10)}T00:00:00Z`));

/** The QR code as one path of unit squares (no library renders React for us). */
export function qrPathOf(text: string): { path: string; size: number } {
  const { data, size } = encode(text, { ecc: "M", border: 0 });
  let path = "";
  data.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    })
  );
  return { path, size };
}

const names = (items: JobItem[], kinds: ItemKind[]) =>
  clipText(
    items.filter((i) => kinds.includes(i.kind)).map((i) => i.name.trim()).filter(Boolean)
      .join(", "),
    WORK_ORDER_LIMITS.line,
  ) || "—";

/** Frame sizes and colour as the store wrote them in the measurements' extras. */
const FRAME_EXTRA = /colou?r|eye size|^eye$|bridge|temple|^a$|^b$|dbl/i;
const PD_EXTRA = /\bpd\b|pupil/i;

export function workOrderSheet(
  job: JobView,
  bundle: Pick<OrderBundle, "client">,
  branding: Branding,
): WorkOrderSheet {
  const frameItem = job.items.find((i) => i.kind === "FRAME");
  const extras = Object.entries(job.measurements.extras ?? {});
  const frame: Array<[string, string]> = frameItem
    ? [
      ["Frame", shortenName(frameItem.name || "—", WORK_ORDER_LIMITS.name)],
      ["SKU", shortenName(frameItem.sku ?? "—", WORK_ORDER_LIMITS.name)],
      ...(frameItem.notes.trim()
        ? [["Details", clipText(frameItem.notes.trim(), WORK_ORDER_LIMITS.details)] as [
          string,
          string,
        ]]
        : []),
    ]
    : [["Frame", "Client's own frame / none on this job"]];
  for (const [k, v] of extras.filter(([k]) => FRAME_EXTRA.test(k))) {
    if (frame.length >= 3 + WORK_ORDER_LIMITS.extras) break;
    frame.push([shortenName(k, 16), shortenName(String(v), 28)]);
  }
  const pd: Array<[string, string]> = [
    ["PD (distance)", job.measurements.pdDistance || "—"],
    ["PD (near)", job.measurements.pdNear || "—"],
  ];
  for (const [k, v] of extras.filter(([k]) => PD_EXTRA.test(k)).slice(0, 3)) {
    pd.push([shortenName(k, 16), shortenName(String(v), 28)]);
  }
  pd.push(["SEG / OC", shortenName(job.measurements.segOc || "—", 28)]);
  const rx = job.prescription;
  const eye = (label: string, e: NonNullable<typeof rx>["rightEye"]): WorkOrderEye => ({
    eye: label,
    sphere: formatPower(e.sphere),
    cylinder: formatPower(e.cylinder),
    axis: formatAxis(e.axis),
    add: formatPower(e.add),
    prism: formatPrism(e.prism?.amount ?? null, e.prism?.base ?? null),
  });
  const qr = qrPathOf(job.jobNumber);
  return {
    jobNumber: job.jobNumber,
    qrPath: qr.path,
    qrSize: qr.size,
    storeName: shortenName(branding.storeName, WORK_ORDER_LIMITS.name),
    storePhone: shortenName(branding.storePhone, 40),
    logoUrl: branding.logoPrintUrl ?? branding.logoUrl,
    clientName: shortenName(
      `${bundle.client.firstName} ${bundle.client.lastName}`,
      WORK_ORDER_LIMITS.name,
    ),
    lab: {
      name: shortenName(job.lab.name, WORK_ORDER_LIMITS.name),
      phone: shortenName(job.lab.phone ?? "", 40),
      accountNumber: shortenName(job.lab.accountNumber ?? "", 40),
    },
    orderedDate: day(job.orderedAt),
    promisedDate: day(job.promisedDate),
    remake: job.remakeCount > 0 ? `Remake ${job.remakeCount}` : "",
    frame,
    lens: [
      ["Lens package", names(job.items, ["PACKAGE"])],
      ["Lens type", names(job.items, ["LENS"])],
      ["Material", names(job.items, ["MATERIAL"])],
      ["Coatings", names(job.items, ["AR"])],
      ["Add-ons", names(job.items, ["ADDON"])],
    ],
    rx: rx
      ? {
        written: day(rx.dateWritten),
        prescriber: shortenName(rx.prescriber, 80),
        eyes: [eye("OD (right)", rx.rightEye), eye("OS (left)", rx.leftEye)],
      }
      : null,
    pd,
    notes: clipText(job.notes.trim(), WORK_ORDER_LIMITS.notes),
  };
}
