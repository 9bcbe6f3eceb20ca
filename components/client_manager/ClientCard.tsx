import type { ClientSummary } from "../../src/clients/views.ts";
import { Badge } from "../Badge.tsx";
import { DateText, formatAddress, fullName } from "./format.tsx";

export interface ClientCardProps {
  client: ClientSummary;
  onOpen: (client: ClientSummary) => void;
  onNewQuote: (client: ClientSummary) => void;
  onEdit: (client: ClientSummary) => void;
  onDelete: (client: ClientSummary) => void;
  /** While a quote is being created for this client. */
  creatingQuote?: boolean;
  busy?: boolean;
}

/**
 * One client. The name is the button that opens the details; its hit area is
 * stretched over the whole card by CSS, so a tap anywhere opens it while the
 * action buttons, layered above, stay separate controls.
 */
export function ClientCard(
  { client, onOpen, onNewQuote, onEdit, onDelete, creatingQuote, busy }: ClientCardProps,
) {
  const name = fullName(client);
  const address = formatAddress(client);
  const phone = client.mobilePhone || client.homePhone;
  const detailsId = `client-${client.id}-details`;
  return (
    <li className="client-card" data-client-id={client.id}>
      <div className="client-card-head">
        <h3 className="client-card-name">
          <button
            type="button"
            className="card-cover client-card-open"
            aria-describedby={detailsId}
            onClick={() => onOpen(client)}
          >
            {name}
          </button>
        </h3>
        {client.measurementStatus === "PENDING" && (
          <Badge variant="warning">Measurements Pending</Badge>
        )}
        {client.measurementStatus === "NONE" && <Badge variant="secondary">No Measurements</Badge>}
      </div>
      <dl className="client-card-details" id={detailsId}>
        <div>
          <dt>Email</dt>
          <dd>{client.email || <span className="muted">No email</span>}</dd>
        </div>
        <div>
          <dt>{client.mobilePhone || !client.homePhone ? "Mobile" : "Home"}</dt>
          <dd>{phone || <span className="muted">No phone</span>}</dd>
        </div>
        <div>
          <dt>Address</dt>
          <dd>{address || <span className="muted">No address</span>}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <DateText iso={client.createdAt} />
          </dd>
        </div>
        <div>
          <dt>Last visit</dt>
          <dd>
            {client.lastVisit
              ? <DateText iso={client.lastVisit} />
              : <span className="muted">No visits</span>}
          </dd>
        </div>
        <div>
          <dt>Quotes</dt>
          <dd>{client.quoteCount}</dd>
        </div>
      </dl>
      <div className="client-card-actions">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          aria-label={`New Quote for ${name}`}
          disabled={busy}
          onClick={() => onNewQuote(client)}
        >
          {creatingQuote ? "Creating..." : "New Quote"}
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm"
          aria-label={`Edit ${name}`}
          onClick={() => onEdit(client)}
        >
          Edit
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm client-card-delete"
          aria-label={`Delete ${name}`}
          onClick={() => onDelete(client)}
        >
          Delete
        </button>
      </div>
    </li>
  );
}
