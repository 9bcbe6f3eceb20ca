import { useState } from "react";
import { apiRequest, errorDetail, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import { Dialog } from "../Dialog.tsx";
import { forgetDevice } from "../offline/forget_device.ts";

export type HandOverTarget = { kind: "QUOTE"; quoteId: string } | { kind: "INTAKE" };

const WHAT: Record<HandOverTarget["kind"], string> = {
  QUOTE: "only this quote's options, for the client to choose and confirm",
  INTAKE: "only the intake form, for the client to fill in once",
};

/**
 * "Hand to client": after a confirmation, swaps this browser to a kiosk
 * session (the server ends the staff session here) and opens the client's
 * page. `disabledReason` says why it cannot be done now.
 */
export function HandToClientButton(
  { target, disabledReason, className = "btn btn-outline" }: {
    target: HandOverTarget;
    disabledReason?: string | null;
    className?: string;
  },
) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const reasonId = `hand-over-why-${target.kind.toLowerCase()}`;

  async function handOver() {
    setBusy(true);
    try {
      const answer = await apiRequest<{ location: string }>("POST", "/api/kiosk/hand-over", target);
      // The staff session has ended here: what staff opened on this device (a
      // quote previewed on the tablet page, a draft) is not left for the
      // client, who could open it offline from the kept shell.
      await forgetDevice();
      // Replace: the staff page just left is not one Back away from the client.
      location.replace(answer.location);
    } catch (error) {
      setBusy(false);
      setOpen(false);
      if (isUnauthorized(error)) return;
      toast({
        title: "Could not hand the tablet to the client",
        description: errorDetail(error),
        variant: "destructive",
      });
    }
  }

  return (
    <>
      <button
        type="button"
        className={className}
        disabled={!!disabledReason || busy}
        aria-describedby={disabledReason ? reasonId : undefined}
        onClick={() => setOpen(true)}
      >
        Hand to Client
      </button>
      {disabledReason && <p id={reasonId} className="hint">{disabledReason}</p>}
      <Dialog
        open={open}
        onClose={() => !busy && setOpen(false)}
        title="Hand to Client"
        size="sm"
        description={
          <>
            <p>{`This browser will show ${WHAT[target.kind]}.`}</p>
            <p>
              You will be signed out here. To return to your work, enter a staff password on the
              tablet.
            </p>
          </>
        }
        footer={
          <>
            <button
              type="button"
              className="btn btn-outline"
              onClick={() => setOpen(false)}
              disabled={busy}
            >
              Cancel
            </button>
            <button type="button" className="btn btn-primary" onClick={handOver} disabled={busy}>
              {busy ? "Handing over..." : "Hand to Client"}
            </button>
          </>
        }
      />
    </>
  );
}
