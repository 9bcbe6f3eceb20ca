// "Create Order" on a finalized quote: the lab and the client's prescription
// (the latest by default), then one job per chosen option. A quote that
// already has an order links to it instead.
import { type FormEvent, useId, useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Dialog } from "../Dialog.tsx";
import { apiRequest, errorDetail, isUnauthorized } from "../api_client.ts";
import { useSendKey } from "../send_key.ts";
import { toast } from "../toast.tsx";
import type { LabView, OrderBundle } from "../../src/orders/views.ts";
import type { PrescriptionView } from "../../src/prescriptions/views.ts";
import type { QuoteOptionView } from "../../src/quotes/views.ts";
import { optionTabLabel, totalCents } from "../../src/quotes/rules.ts";
import { formatMoney } from "../../src/money/amounts.ts";

interface ClientOrderRow {
  orderId: string;
  quoteNumber: string;
}

export function CreateOrderDialog(
  { open, options, quoteId, quoteNumber, storeId, clientId, onClose }: {
    open: boolean;
    /** The quote's options: the chosen ones become jobs (the only one when none is chosen). */
    options: QuoteOptionView[];
    quoteId: string;
    quoteNumber: string;
    /** The quote's store: the order is its, and goes to one of the labs it uses. */
    storeId: string;
    clientId: string;
    onClose: () => void;
  },
) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create Order"
      description="Each chosen option becomes a job for the lab, with a copy of what was sold."
    >
      <CreateOrderForm
        options={options}
        quoteId={quoteId}
        quoteNumber={quoteNumber}
        storeId={storeId}
        clientId={clientId}
        onClose={onClose}
      />
    </Dialog>
  );
}

function CreateOrderForm(
  { options, quoteId, quoteNumber, storeId, clientId, onClose }: {
    options: QuoteOptionView[];
    quoteId: string;
    quoteNumber: string;
    storeId: string;
    clientId: string;
    onClose: () => void;
  },
) {
  const id = useId();
  const labs = useQuery({
    queryKey: ["labs", "active", storeId],
    queryFn: () => apiRequest<LabView[]>("GET", `/api/labs?store=${encodeURIComponent(storeId)}`),
  });
  const prescriptions = useQuery({
    queryKey: ["prescriptions", clientId],
    queryFn: () => apiRequest<PrescriptionView[]>("GET", `/api/clients/${clientId}/prescriptions`),
  });
  const orders = useQuery({
    queryKey: ["client-orders", clientId],
    queryFn: () => apiRequest<ClientOrderRow[]>("GET", `/api/clients/${clientId}/orders`),
  });
  const [labId, setLabId] = useState("");
  // "" = the latest (the server's default), "none" = no prescription.
  const [rxId, setRxId] = useState("");
  // Sent again after a lost answer, the order is answered, not refused as made.
  const createKey = useSendKey();
  const create = useMutation({
    mutationFn: () => {
      const body = {
        labId: labId || labs.data?.[0]?.id,
        ...(rxId === "none" ? { prescriptionId: null } : rxId ? { prescriptionId: rxId } : {}),
      };
      return apiRequest<OrderBundle>("POST", `/api/quotes/${quoteId}/order`, body, {
        idempotencyKey: createKey.keyFor(body),
      });
    },
    onSuccess: (bundle) => {
      toast({
        title: "Order Created",
        description: bundle.jobs.map((j) => j.jobNumber).join(", "),
        variant: "success",
      });
      location.assign(`/orders/${bundle.order.id}`);
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({ title: "No order made", description: errorDetail(error), variant: "destructive" });
    },
  });

  const existing = orders.data?.find((o) => o.quoteNumber === quoteNumber);
  if (labs.isPending || prescriptions.isPending || orders.isPending) {
    return <p role="status">Loading labs and prescriptions...</p>;
  }
  if (labs.isError || prescriptions.isError || orders.isError) {
    return <p className="notice notice-warning" role="alert">Could not load; try again.</p>;
  }
  if (existing) {
    return (
      <div className="stack">
        <p>This quote already has an order.</p>
        <div className="dialog-footer">
          <button type="button" className="btn btn-outline" onClick={onClose}>Close</button>
          <a className="btn btn-primary" href={`/orders/${existing.orderId}`}>Open Order</a>
        </div>
      </div>
    );
  }
  if (labs.data.length === 0) {
    return (
      <div className="stack">
        <p>No active lab yet. An admin adds labs under Admin, Labs.</p>
        <div className="dialog-footer">
          <button type="button" className="btn btn-outline" onClick={onClose}>Close</button>
        </div>
      </div>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!create.isPending) create.mutate();
  }

  // What the server makes jobs of (createOrder): the chosen options, or the only one.
  const jobs = options.filter((o) => o.isChosen);
  const becoming = jobs.length === 0 && options.length === 1 ? options : jobs;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      {becoming.length === 0
        ? (
          <p className="notice notice-warning" role="alert">
            No option is chosen yet: choose the options the client takes, then create the order.
          </p>
        )
        : (
          <div>
            <p id={`${id}-jobs`}>
              {becoming.length === 1 ? "This option becomes a job:" : "These options become jobs:"}
            </p>
            <ul className="order-jobs-list" aria-labelledby={`${id}-jobs`}>
              {becoming.map((o) => (
                <li key={o.id}>
                  <strong>{optionTabLabel(o, options.indexOf(o))}</strong>{" "}
                  <span className="muted">{formatMoney(Math.max(0, totalCents(o)))}</span>
                </li>
              ))}
            </ul>
          </div>
        )}
      <div className="field">
        <label htmlFor={`${id}-lab`}>Lab</label>
        <select id={`${id}-lab`} value={labId} onChange={(e) => setLabId(e.target.value)}>
          {labs.data.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name} ({l.turnaroundDays} business days)
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-rx`}>Prescription</label>
        <select id={`${id}-rx`} value={rxId} onChange={(e) => setRxId(e.target.value)}>
          {prescriptions.data.length > 0 && (
            <option value="">
              Latest: {prescriptions.data[0].dateWritten} ({prescriptions.data[0].prescriber})
            </option>
          )}
          {prescriptions.data.slice(1).map((p) => (
            <option key={p.id} value={p.id}>{p.dateWritten} ({p.prescriber})</option>
          ))}
          <option value={prescriptions.data.length > 0 ? "none" : ""}>
            No prescription on file
          </option>
        </select>
      </div>
      <div className="dialog-footer">
        <button type="button" className="btn btn-outline" onClick={onClose}>Cancel</button>
        <button
          type="submit"
          className="btn btn-primary"
          disabled={create.isPending || becoming.length === 0}
        >
          {create.isPending ? "Creating..." : "Create Order"}
        </button>
      </div>
    </form>
  );
}
