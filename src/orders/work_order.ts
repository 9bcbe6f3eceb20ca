// What a lab work order shows, one sheet per job, for the printed page and
// the PDF alike: every text whole (the lab's notes, the order's notes, the
// prescription's notes, every item), nothing cut. A sheet is set in the
// largest of a few type sizes (WORK_ORDER_DENSITIES) at which it fits one page;
// a sheet too long even in the smallest continues on the next page, its
// header (job number and QR code) repeated there, never cut.
//
// Which jobs a work order holds is decided here too (workOrderJobs): the jobs
// the lab must make, unless staff ask for others, which are then marked with
// a band no one can miss.
import { encode } from "uqr";
import { formatAxis, formatPower, formatPrism } from "../prescriptions/rules.ts";
import type { Branding } from "../settings/settings.ts";
import type { ItemKind, JobStatus } from "../../db/schema.ts";
import type { JobItem, JobView, OrderBundle } from "./views.ts";
import { isForLab } from "./rules.ts";

export type Paper = "a4" | "letter";
export const PAPERS: Paper[] = ["letter", "a4"];

export { densityClass, WORK_ORDER_DENSITIES, WORK_ORDER_LAST } from "./work_order_density.ts";

export interface WorkOrderEye {
  eye: string;
  sphere: string;
  cylinder: string;
  axis: string;
  add: string;
  prism: string;
}

/** A job the lab must not make, printed because staff asked for it. */
export interface WorkOrderBand {
  /** "CANCELLED — do not make". */
  title: string;
  /** "CANCELLED", across the sheet behind its text. */
  watermark: string;
  /** Who and why, from the job's history. */
  detail: string;
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
  /** Set on a cancelled or picked-up job: the sheet says in large type not to make it. */
  band: WorkOrderBand | null;
  frame: Array<[string, string]>;
  lens: Array<[string, string]>;
  rx: { written: string; prescriber: string; eyes: WorkOrderEye[]; notes: string } | null;
  pd: Array<[string, string]>;
  /** The job's notes for the lab (the option's notes), whole. */
  notes: string;
  /** The order's notes, whole; empty when there are none. */
  orderNotes: string;
}

/** The words a sheet prints for an empty note. */
export const NO_NOTES = "None";

/** The section titles, as both the printed page and the PDF print them. */
export const WORK_ORDER_TITLES = {
  job: "Job",
  lab: "Lab",
  lenses: "Lenses",
  rx: "Prescription",
  frame: "Frame",
  measurements: "Measurements",
  notes: "Job Notes",
  orderNotes: "Order Notes",
} as const;

const BANDS: Partial<Record<JobStatus, string>> = {
  CANCELLED: "CANCELLED — do not make",
  PICKED_UP: "PICKED UP — do not make",
};

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

/** Which jobs staff asked for: the ones the lab must make, every one, or those named. */
export interface WorkOrderChoice {
  /** Only these jobs (by id), whatever their status; those the lab must not make are marked. */
  jobIds?: string[];
  /** Every job of the order, cancelled and picked-up ones marked. */
  all?: boolean;
}

/**
 * The jobs a work order holds, in the order's order: by default the jobs the
 * lab must make (not cancelled, not picked up). The printed page, the PDF and
 * the lab's e-mail all choose through here.
 */
export function workOrderJobs(jobs: JobView[], choice: WorkOrderChoice = {}): JobView[] {
  if (choice.jobIds) {
    const ids = new Set(choice.jobIds);
    return jobs.filter((j) => ids.has(j.id));
  }
  return choice.all ? jobs : jobs.filter((j) => isForLab(j.status));
}

/** The choice as the page's and the PDF's query say it: `?job={id}`, `?all=1`. */
export function workOrderChoiceOf(query: { job?: string; all?: string }): WorkOrderChoice {
  if (query.job) return { jobIds: [query.job] };
  return { all: query.all === "1" || query.all === "true" };
}

const names = (items: JobItem[], kinds: ItemKind[]) =>
  items.filter((i) => kinds.includes(i.kind)).map((i) => i.name.trim()).filter(Boolean)
    .join(", ") || "—";

/** Frame sizes and colour as the store wrote them in the measurements' extras. */
const FRAME_EXTRA = /colou?r|eye size|^eye$|bridge|temple|^a$|^b$|dbl/i;

function bandOf(job: JobView): WorkOrderBand | null {
  const title = BANDS[job.status];
  if (!title) return null;
  const event = job.events.findLast((e) => e.toStatus === job.status);
  const what = job.status === "CANCELLED" ? "Cancelled" : "Picked up";
  const detail = event
    ? `${what} on ${day(event.at)} by ${event.actor}${event.reason ? `: ${event.reason}` : ""}.`
      .replace(/([.!?])\.$/, "$1")
    : `${what}.`;
  return { title, detail, watermark: job.status === "CANCELLED" ? "CANCELLED" : "PICKED UP" };
}

export function workOrderSheet(
  job: JobView,
  bundle: Pick<OrderBundle, "client"> & { order: Pick<OrderBundle["order"], "notes"> },
  branding: Branding,
): WorkOrderSheet {
  const frameItem = job.items.find((i) => i.kind === "FRAME");
  const extras = Object.entries(job.measurements.extras ?? {})
    .map(([k, v]): [string, string] => [k.trim(), String(v).trim()])
    .filter(([k, v]) => k && v);
  const frame: Array<[string, string]> = frameItem
    ? [
      ["Frame", frameItem.name.trim() || "—"],
      ["SKU", frameItem.sku?.trim() || "—"],
      ...(frameItem.notes.trim() ? [["Details", frameItem.notes.trim()] as [string, string]] : []),
    ]
    : [["Frame", "Client's own frame / none on this job"]];
  frame.push(...extras.filter(([k]) => FRAME_EXTRA.test(k)));
  const pd: Array<[string, string]> = [
    ["PD (distance)", job.measurements.pdDistance || "—"],
    ["PD (near)", job.measurements.pdNear || "—"],
    ["SEG / OC", job.measurements.segOc?.trim() || "—"],
    // Every other measurement the store took (vertex distance, tilt, PD per eye …).
    ...extras.filter(([k]) => !FRAME_EXTRA.test(k)),
  ];
  const rx = job.prescription;
  const eye = (label: string, e: NonNullable<typeof rx>["rightEye"]): WorkOrderEye => ({
    eye: label,
    sphere: formatPower(e.sphere),
    cylinder: formatPower(e.cylinder),
    axis: formatAxis(e.axis),
    add: formatPower(e.add),
    prism: formatPrism(e.prism?.amount ?? null, e.prism?.base ?? null),
  });
  const other = job.items.some((i) => i.kind === "OTHER");
  const qr = qrPathOf(job.jobNumber);
  return {
    jobNumber: job.jobNumber,
    qrPath: qr.path,
    qrSize: qr.size,
    storeName: branding.storeName,
    storePhone: branding.storePhone,
    logoUrl: branding.logoPrintUrl ?? branding.logoUrl,
    clientName: `${bundle.client.firstName} ${bundle.client.lastName}`.trim(),
    lab: {
      name: job.lab.name,
      phone: job.lab.phone ?? "",
      accountNumber: job.lab.accountNumber ?? "",
    },
    orderedDate: day(job.orderedAt),
    promisedDate: day(job.promisedDate),
    remake: job.remakeCount > 0 ? `Remake ${job.remakeCount}` : "",
    band: bandOf(job),
    frame,
    lens: [
      ["Lens package", names(job.items, ["PACKAGE"])],
      ["Lens type", names(job.items, ["LENS"])],
      ["Material", names(job.items, ["MATERIAL"])],
      ["Coatings", names(job.items, ["AR"])],
      ["Add-ons", names(job.items, ["ADDON"])],
      ...(other ? [["Other", names(job.items, ["OTHER"])] as [string, string]] : []),
    ],
    rx: rx
      ? {
        written: day(rx.dateWritten),
        prescriber: rx.prescriber,
        eyes: [eye("OD (right)", rx.rightEye), eye("OS (left)", rx.leftEye)],
        notes: rx.notes.trim(),
      }
      : null,
    pd,
    notes: job.notes.trim(),
    orderNotes: bundle.order.notes.trim(),
  };
}
