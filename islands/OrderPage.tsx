// The order page: each job with its status timeline and the steps it may take
// next (the server decides them and refuses the rest), the payments and the
// balance, and the links to print the work order and receipt.
import { type FormEvent, useId, useRef, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { ApiError, apiRequest, errorDetail, isUnauthorized } from "../components/api_client.ts";
import { useSendKey } from "../components/send_key.ts";
import { toast } from "../components/toast.tsx";
import { Badge } from "../components/Badge.tsx";
import { JOB_STATUS_VARIANTS } from "../components/orders/job_status.ts";
import { CalendarDate } from "../components/client_manager/format.tsx";
import { When } from "../components/history/HistoryChanges.tsx";
import { type PendingStep, StepDialog } from "../components/orders/StepDialog.tsx";
import { PromisedDateDialog } from "../components/orders/PromisedDateDialog.tsx";
import { PickupStoreDialog } from "../components/orders/PickupStoreDialog.tsx";
import type { StoreListing } from "../src/stores/store_listing.ts";
import { EmailLabDialog } from "../components/orders/EmailLabDialog.tsx";
import { formatDecimal, formatMoney, parseCents } from "../src/money/amounts.ts";
import {
  isForLab,
  JOB_STATUS_LABELS,
  type JobStep,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHODS,
} from "../src/orders/rules.ts";
import type { JobView, OrderBundle } from "../src/orders/views.ts";
import type { JobStatus, PaymentMethod, Role } from "../db/schema.ts";
import { ColumnHeads } from "../components/ColumnHeads.tsx";
import { Checkbox } from "../components/Checkbox.tsx";
import { Disclosure } from "../components/Disclosure.tsx";
import { useFocusAfter } from "../components/focus_rule.ts";

export interface OrderPageProps {
  bundle: OrderBundle;
  role: Role;
  /** A chain of several stores: the order's, each job's pickup and each payment's store. */
  stores?: StoreListing;
  /** In a chain: the stores the user works in (a job is moved on by its stores' staff only). */
  workIn?: string[];
}

/** "Downtown (DT)", or the id's end for a store no longer known. */
const storeName = (stores: StoreListing, id: string) => {
  const s = stores.stores.find((s) => s.id === id);
  return s ? `${s.name} (${s.code})` : id.slice(-8);
};

function failed(error: unknown, title: string) {
  if (isUnauthorized(error)) return;
  toast({ title, description: errorDetail(error), variant: "destructive" });
}

export default function OrderPage({ bundle: initial, role, stores, workIn }: OrderPageProps) {
  const [bundle, setBundle] = useState(initial);
  const [pending, setPending] = useState<PendingStep | null>(null);
  const mayOverride = role === "ADMIN" || role === "OWNER";

  // The step's button is disabled while it is sent and often gone after it: focus
  // goes back to it, else to the job's next step, else to the job's heading.
  const stepFrom = useRef<Element | null>(null);
  const stepKey = useSendKey();
  const step = useMutation({
    mutationFn: (input: { job: JobView; to: JobStatus; reason?: string; override?: string }) => {
      const url = `/api/jobs/${input.job.id}/step`;
      const body = {
        to: input.to,
        version: input.job.version,
        reason: input.reason ?? "",
        ...(input.override ? { overrideReason: input.override } : {}),
      };
      return apiRequest<OrderBundle>("POST", url, body, {
        idempotencyKey: stepKey.keyFor([url, body]),
      });
    },
    onSuccess: (next, input) => {
      stepKey.done();
      setBundle(next);
      setPending(null);
      toast({
        title: `${input.job.jobNumber}: ${JOB_STATUS_LABELS[input.to]}`,
        variant: "success",
      });
    },
    onError: (error) => failed(error, "The job did not move"),
    onSettled: (_next, _error, input) => {
      const from = stepFrom.current;
      focusAfter(() => {
        const heading = document.getElementById(jobHeadingId(input.job.id));
        const steps = heading?.closest(".job-card")?.querySelector(".job-steps");
        return [
          from,
          steps?.querySelector(".btn-primary"),
          steps?.querySelector("button"),
          heading,
        ];
      });
    },
  });
  const focusAfter = useFocusAfter(step.isPending);

  function onStep(job: JobView, s: JobStep) {
    if (step.isPending) return;
    stepFrom.current = document.activeElement;
    if (s.to === "PICKED_UP" && bundle.money.balanceCents > 0) {
      setPending({
        jobId: job.id,
        jobNumber: job.jobNumber,
        step: s,
        balanceCents: bundle.money.balanceCents,
      });
    } else if (s.needsReason) {
      setPending({ jobId: job.id, jobNumber: job.jobNumber, step: s });
    } else {
      step.mutate({ job, to: s.to });
    }
  }

  function onReason(reason: string) {
    if (!pending) return;
    const job = bundle.jobs.find((j) => j.id === pending.jobId)!;
    step.mutate(
      pending.balanceCents
        ? { job, to: pending.step.to, override: reason }
        : { job, to: pending.step.to, reason },
    );
  }

  const [dating, setDating] = useState<JobView | null>(null);
  const promiseKey = useSendKey();
  const promise = useMutation({
    mutationFn: (input: { job: JobView; promisedDate: string; reason: string }) => {
      const url = `/api/jobs/${input.job.id}/promised-date`;
      const body = {
        promisedDate: input.promisedDate,
        reason: input.reason,
        version: input.job.version,
      };
      return apiRequest<OrderBundle>("PUT", url, body, {
        idempotencyKey: promiseKey.keyFor([url, body]),
      });
    },
    onSuccess: (next, input) => {
      promiseKey.done();
      setBundle(next);
      setDating(null);
      toast({ title: `${input.job.jobNumber}: promised date changed`, variant: "success" });
    },
    onError: (error) => failed(error, "The promised date was not changed"),
  });

  const [moving, setMoving] = useState<JobView | null>(null);
  const moveKey = useSendKey();
  const move = useMutation({
    mutationFn: (input: { job: JobView; storeId: string }) => {
      const url = `/api/jobs/${input.job.id}/pickup-store`;
      const body = { storeId: input.storeId, version: input.job.version };
      return apiRequest<OrderBundle>("PUT", url, body, {
        idempotencyKey: moveKey.keyFor([url, body]),
      });
    },
    onSuccess: (next, input) => {
      moveKey.done();
      setBundle(next);
      setMoving(null);
      toast({
        title: `${input.job.jobNumber}: pickup at ${
          stores ? storeName(stores, input.storeId) : ""
        }`,
        variant: "success",
      });
    },
    onError: (error) => failed(error, "The pickup store was not changed"),
  });

  const [choosingJobs, setChoosingJobs] = useState(false);
  const emailLab = useMutation({
    mutationFn: (jobIds: string[]) =>
      apiRequest<{ status: "sent" | "queued"; message: string }>(
        "POST",
        `/api/orders/${bundle.order.id}/work-order/email`,
        { jobIds },
      ),
    // "E-mailed" only when the mail server took it; otherwise it waits in the outbox.
    onSuccess: (res) => {
      setChoosingJobs(false);
      toast({
        title: res.status === "sent" ? "Work Order E-mailed" : "Work order queued",
        description: res.message,
        ...(res.status === "sent" ? { variant: "success" as const } : {}),
      });
    },
    onError: (error) => failed(error, "The work order was not e-mailed"),
  });

  const { order, client, money } = bundle;
  return (
    <div className="order-page">
      <div className="page-head">
        <div>
          <h1>Order for {client.firstName} {client.lastName}</h1>
          <p className="muted">
            From quote {order.quoteId
              ? <a className="link" href={`/quote/${order.quoteId}`}>{order.quoteNumber}</a>
              : order.quoteNumber} · ordered <When iso={order.createdAt} />
            {order.opticianName && <>{" "}· optician {order.opticianName}</>}
            {stores && (
              <>
                {" "}· store{" "}
                <span data-testid="order-store">{storeName(stores, order.storeId)}</span>
              </>
            )}
          </p>
        </div>
        <div className="order-head-actions">
          <a className="btn btn-outline" href={`/orders/${order.id}/work-order`}>
            Print Work Order
          </a>
          <a className="btn btn-outline" href={`/orders/${order.id}/receipt`}>Print Receipt</a>
          <button
            type="button"
            className="btn btn-outline"
            disabled={emailLab.isPending}
            onClick={() => setChoosingJobs(true)}
          >
            {emailLab.isPending ? "Sending..." : "E-mail to Lab"}
          </button>
          <a className="btn btn-outline" href={`/clients?id=${client.id}`}>Client</a>
          <a className="btn btn-outline" href="/orders">All Orders</a>
        </div>
      </div>

      <section className="card order-money" aria-label="Balance">
        <dl>
          <div>
            <dt>Total</dt>
            <dd data-testid="order-total">{formatMoney(money.totalCents)}</dd>
          </div>
          <div>
            <dt>Paid</dt>
            <dd data-testid="order-paid">{formatMoney(money.paidCents)}</dd>
          </div>
          <div>
            <dt>Balance due</dt>
            <dd data-testid="order-balance">{formatMoney(money.balanceCents)}</dd>
          </div>
          {money.creditCents > 0 && (
            <div>
              <dt>To refund</dt>
              <dd>{formatMoney(money.creditCents)}</dd>
            </div>
          )}
        </dl>
      </section>

      {order.notes && (
        <section className="card order-notes" aria-labelledby="order-notes-title">
          <h2 id="order-notes-title">Order Notes</h2>
          <p className="order-notes-text" data-testid="order-notes">{order.notes}</p>
        </section>
      )}

      {bundle.jobs.map((job) => (
        <JobCard
          key={job.id}
          orderId={order.id}
          job={job}
          busy={step.isPending}
          onStep={(s) => onStep(job, s)}
          onChangeDate={() => setDating(job)}
          pickupStore={stores ? storeName(stores, job.pickupStoreId) : undefined}
          onChangePickup={stores ? () => setMoving(job) : undefined}
          othersOnly={stores && workIn &&
              !workIn.includes(order.storeId) && !workIn.includes(job.pickupStoreId)
            ? [...new Set([order.storeId, job.pickupStoreId])].map((s) => storeName(stores, s))
              .join(" or ")
            : undefined}
        />
      ))}

      <Payments bundle={bundle} role={role} onChange={setBundle} stores={stores} />

      <PromisedDateDialog
        job={dating}
        busy={promise.isPending}
        onClose={() => setDating(null)}
        onSubmit={(promisedDate, reason) =>
          dating && promise.mutate({ job: dating, promisedDate, reason })}
      />
      {stores && (
        <PickupStoreDialog
          job={moving}
          stores={stores.stores}
          busy={move.isPending}
          onClose={() => setMoving(null)}
          onSubmit={(storeId) => moving && move.mutate({ job: moving, storeId })}
        />
      )}
      <EmailLabDialog
        open={choosingJobs}
        jobs={bundle.jobs}
        busy={emailLab.isPending}
        onClose={() => setChoosingJobs(false)}
        onSubmit={(jobIds) => emailLab.mutate(jobIds)}
      />
      <StepDialog
        pending={pending}
        mayOverride={mayOverride}
        busy={step.isPending}
        onClose={() => setPending(null)}
        onSubmit={onReason}
      />
    </div>
  );
}

const jobHeadingId = (jobId: string) => `job-${jobId}`;

function JobCard(
  { orderId, job, busy, onStep, onChangeDate, pickupStore, onChangePickup, othersOnly }: {
    orderId: string;
    job: JobView;
    busy: boolean;
    onStep: (s: JobStep) => void;
    onChangeDate: () => void;
    /** A chain's: the store the glasses go to, and the way to send them elsewhere. */
    pickupStore?: string;
    onChangePickup?: () => void;
    /** The job's stores, when the user works in neither: its steps are theirs to take. */
    othersOnly?: string;
  },
) {
  const headingId = jobHeadingId(job.id);
  return (
    <section className="card job-card" aria-labelledby={headingId} data-testid="job-card">
      <div className="job-head">
        <h2 id={headingId}>
          <span className="job-number">{job.jobNumber}</span>{" "}
          <span className="muted">{job.optionLabel}</span>
        </h2>
        <span data-testid="job-status">
          <Badge variant={JOB_STATUS_VARIANTS[job.status]}>{JOB_STATUS_LABELS[job.status]}</Badge>
        </span>
        {job.isLate && <Badge variant="destructive">Late</Badge>}
      </div>
      <dl className="job-facts">
        <div>
          <dt>Lab</dt>
          <dd>{job.lab.name}</dd>
        </div>
        <div>
          <dt>Promised</dt>
          <dd data-testid="promised-date">
            <CalendarDate value={job.promisedDate} />
          </dd>
        </div>
        <div>
          <dt>Total</dt>
          <dd>{formatDecimal(job.total)}</dd>
        </div>
        <div>
          <dt>Remakes</dt>
          <dd data-testid="remake-count">{job.remakeCount}</dd>
        </div>
        {pickupStore && (
          <div>
            <dt>Pickup store</dt>
            <dd data-testid="pickup-store">{pickupStore}</dd>
          </div>
        )}
        {job.clientNotifiedAt && (
          <div>
            <dt>Client notified</dt>
            <dd data-testid="client-notified">
              <When iso={job.clientNotifiedAt} />
            </dd>
          </div>
        )}
      </dl>
      <Disclosure summary="What was sold" className="job-details">
        <ul className="job-items">
          {job.items.map((item, i) => (
            <li key={i}>
              {item.name || item.kind}
              {item.sku ? ` (${item.sku})` : ""} · {item.qty} × {formatDecimal(item.unitPrice)}
            </li>
          ))}
        </ul>
        <p className="muted">
          PD {job.measurements.pdDistance || "—"} / near {job.measurements.pdNear || "—"}
          {job.measurements.segOc ? ` · SEG/OC ${job.measurements.segOc}` : ""}
          {job.prescription
            ? ` · Rx of ${job.prescription.dateWritten} (${job.prescription.prescriber})`
            : " · no prescription on file"}
        </p>
        {job.notes && <p className="order-notes-text job-notes">{job.notes}</p>}
        <p>
          <a className="link" href={`/orders/${orderId}/work-order?job=${job.id}`}>
            Print this job's work order
          </a>
        </p>
      </Disclosure>
      <ol className="job-timeline" aria-label={`History of ${job.jobNumber}`}>
        {job.events.map((e, i) => (
          <li key={i}>
            <strong>{JOB_STATUS_LABELS[e.toStatus]}</strong> · <When iso={e.at} /> · {e.actor}
            {e.reason && <span className="job-reason">: {e.reason}</span>}
          </li>
        ))}
      </ol>
      {othersOnly && job.nextSteps.length > 0 && (
        <p className="muted job-others" data-testid="job-others">
          Moved on by the staff of {othersOnly}.
        </p>
      )}
      {!othersOnly && job.nextSteps.length > 0 && (
        <div className="job-steps" role="group" aria-label={`Next steps for ${job.jobNumber}`}>
          {job.nextSteps.map((s) => (
            <button
              key={`${s.kind}-${s.to}`}
              type="button"
              className={`btn btn-sm ${
                s.kind === "forward"
                  ? "btn-primary"
                  : s.kind === "cancel"
                  ? "btn-outline job-cancel"
                  : "btn-outline"
              }`}
              disabled={busy}
              onClick={() => onStep(s)}
            >
              {s.label}
            </button>
          ))}
          {job.status !== "PICKED_UP" && job.status !== "CANCELLED" && (
            <button type="button" className="btn btn-sm btn-outline" onClick={onChangeDate}>
              Change promised date
            </button>
          )}
          {/* Until the glasses are ready they may go to another store for pickup. */}
          {onChangePickup && job.status !== "READY" && isForLab(job.status) && (
            <button type="button" className="btn btn-sm btn-outline" onClick={onChangePickup}>
              Change pickup store
            </button>
          )}
        </div>
      )}
    </section>
  );
}

function Payments(
  { bundle, role, onChange, stores }: {
    bundle: OrderBundle;
    role: Role;
    onChange: (b: OrderBundle) => void;
    stores?: StoreListing;
  },
) {
  const id = useId();
  const [amount, setAmount] = useState("");
  const [method, setMethod] = useState<PaymentMethod>("CARD");
  const [note, setNote] = useState("");
  const [refund, setRefund] = useState(false);
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mayRefund = role === "ADMIN" || role === "OWNER";

  // Record Payment is disabled while it is sent: focus comes back to it (or to Amount).
  const payFrom = useRef<Element | null>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  // A payment sent again (a double tap, a retry after a lost answer) is taken once.
  const payKey = useSendKey();
  const pay = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      apiRequest<OrderBundle>("POST", `/api/orders/${bundle.order.id}/payments`, body, {
        idempotencyKey: payKey.keyFor(body),
      }),
    onSuccess: (next, body) => {
      payKey.done();
      onChange(next);
      setAmount("");
      setNote("");
      setReason("");
      setRefund(false);
      setErrors({});
      toast({
        title: String(body.amount).startsWith("-") ? "Refund recorded" : "Payment recorded",
        variant: "success",
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fields) setErrors(error.fields);
      failed(error, "The payment was not recorded");
    },
    onSettled: () => {
      const from = payFrom.current;
      focusAfter(() => [from, amountRef.current]);
    },
  });
  const focusAfter = useFocusAfter(pay.isPending);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (pay.isPending) return;
    payFrom.current = document.activeElement;
    const cents = parseCents(amount);
    if (cents === undefined || cents <= 0) {
      setErrors({ amount: "Amount must be a number like 50.00" });
      return;
    }
    if (refund && !reason.trim()) {
      setErrors({ reason: "A refund needs a reason" });
      return;
    }
    pay.mutate({
      amount: refund ? `-${amount.trim()}` : amount.trim(),
      method,
      note,
      ...(refund ? { reason } : {}),
    });
  }

  return (
    <section className="card order-payments" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Payments</h2>
      {bundle.payments.length === 0
        ? <p className="empty-inline">No payments yet.</p>
        : (
          <div className="data-table-wrap" tabIndex={0} aria-labelledby={`${id}-caption`}>
            <table className="data-table">
              <caption id={`${id}-caption`} className="sr-only">Payments of this order</caption>
              <ColumnHeads
                columns={[
                  "Date",
                  "Amount",
                  "Method",
                  ...(stores ? ["Store"] : []),
                  "Staff",
                  "Note",
                ]}
              />
              <tbody>
                {bundle.payments.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <CalendarDate value={p.paidOn} />
                    </td>
                    <td className="num">{formatDecimal(p.amount)}</td>
                    <td>{PAYMENT_METHOD_LABELS[p.method]}</td>
                    {stores && <td>{stores.stores.find((s) => s.id === p.storeId)?.code ?? "—"}
                    </td>}
                    <td>{p.actor}</td>
                    <td>{[p.note, p.reason].filter(Boolean).join(" · ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      <form className="payment-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-amount`}>{refund ? "Refund amount" : "Amount"}</label>
          <input
            ref={amountRef}
            id={`${id}-amount`}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
          />
          {errors.amount && <p id={`${id}-amount-error`} className="field-error">{errors.amount}
          </p>}
        </div>
        <div className="field">
          <label htmlFor={`${id}-method`}>Method</label>
          <select
            id={`${id}-method`}
            value={method}
            onChange={(e) => setMethod(e.target.value as PaymentMethod)}
          >
            {PAYMENT_METHODS.map((m) => (
              <option key={m} value={m}>{PAYMENT_METHOD_LABELS[m]}</option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-note`}>Note</label>
          <input
            id={`${id}-note`}
            value={note}
            maxLength={500}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
        {refund && (
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason for the refund</label>
            <input
              id={`${id}-reason`}
              value={reason}
              maxLength={1000}
              onChange={(e) => setReason(e.target.value)}
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
            />
            {errors.reason && (
              <p id={`${id}-reason-error`} className="field-error">{errors.reason}</p>
            )}
          </div>
        )}
        <div className="payment-actions">
          {mayRefund && (
            <Checkbox
              label="Refund"
              checked={refund}
              onChange={(e) => setRefund(e.target.checked)}
            />
          )}
          <button type="submit" className="btn btn-primary" disabled={pay.isPending}>
            {pay.isPending ? "Saving..." : refund ? "Record Refund" : "Record Payment"}
          </button>
        </div>
      </form>
    </section>
  );
}
