import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { apiRequest, errorDetail, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import { ConfirmDialog } from "./dialogs.tsx";
import type { OnlineState } from "../../src/quotes/online_state.ts";

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" });

/**
 * The quote's online side in the builder: whether the client
 * opened the e-mail's link, accepted it (by whom, when) or declined it (their
 * message), and "Revoke online links", which stops every link already sent.
 * `version` reloads it after the quote changes (a save, an e-mail).
 */
export function OnlineCard({ quoteId, version }: { quoteId: string; version: number }) {
  const [confirming, setConfirming] = useState(false);
  const url = `/api/quotes/${encodeURIComponent(quoteId)}/online`;
  const online = useQuery({
    queryKey: ["quote-online", quoteId, version],
    queryFn: () => apiRequest<OnlineState>("GET", url),
  });
  const revoke = useMutation({
    mutationFn: () =>
      apiRequest<{ revoked: number; message: string }>(
        "POST",
        `/api/quotes/${encodeURIComponent(quoteId)}/online-links/revoke`,
      ),
    onSuccess: async (answer) => {
      setConfirming(false);
      toast({ title: "Online links", description: answer.message, variant: "success" });
      await online.refetch();
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({
        title: "Could not revoke the links",
        description: errorDetail(error),
        variant: "destructive",
      });
    },
  });
  const state = online.data;
  return (
    <section className="card qb-card qb-online" aria-labelledby="qb-online-title">
      <h2 id="qb-online-title">Online Acceptance</h2>
      {online.isPending && <p className="muted" role="status">Loading…</p>}
      {online.isError && (
        <p className="notice notice-error" role="alert">
          The online status could not be loaded. {errorDetail(online.error)}
        </p>
      )}
      {state && (
        <>
          {state.acceptance
            ? (
              <p data-testid="online-accepted">
                <strong>{`Accepted online by ${state.acceptance.signerName}`}</strong>
                <span className="muted">
                  {` on ${when.format(new Date(state.acceptance.acceptedAt))}` +
                    (state.acceptance.typedSignature ? " (typed-name signature)" : "")}
                </span>{" "}
                <a
                  className="link"
                  href={`/api/quotes/${encodeURIComponent(quoteId)}/signed-pdf`}
                  target="_blank"
                  rel="noopener"
                >
                  Signed copy
                </a>
              </p>
            )
            : (
              <p className="muted">
                {state.liveLinks === 0
                  ? "No working online link. E-mailing the quote sends one."
                  : `${state.liveLinks} working online ${
                    state.liveLinks === 1 ? "link" : "links"
                  } sent by e-mail.`}
              </p>
            )}
          {state.acceptance?.signedCopyProblem && (
            <p className="notice notice-error" role="alert" data-testid="signed-copy-problem">
              {state.acceptance.signedCopyProblem}
            </p>
          )}
          {state.viewedAt && (
            <p className="muted">
              {`Last viewed by the client ${when.format(new Date(state.viewedAt))}`}
            </p>
          )}
          {state.declines.length > 0 && (
            <div>
              <h3 className="qb-online-subtitle">Declined online</h3>
              <ul className="qb-online-declines">
                {state.declines.map((d, i) => (
                  <li key={i}>
                    <span className="muted">{when.format(new Date(d.declinedAt))}</span>
                    {": "}
                    {d.message ? `“${d.message}”` : "no message"}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {state.liveLinks > 0 && (
            <button
              type="button"
              className="btn btn-outline btn-block"
              onClick={() => setConfirming(true)}
              disabled={revoke.isPending}
            >
              Revoke online links
            </button>
          )}
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title="Revoke Online Links"
        description="Every online link already e-mailed for this quote stops working at once. The client sees a page asking them to contact the store; e-mailing the quote again sends a new link."
        confirmLabel="Revoke Links"
        busyLabel="Revoking..."
        danger
        busy={revoke.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => revoke.mutate()}
      />
    </section>
  );
}
