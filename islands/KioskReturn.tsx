import { useEffect, useState } from "react";
import { type KioskStaff, StaffReturn } from "../components/kiosk/StaffReturn.tsx";
import { restore } from "../components/offline/device_store.ts";
import type { KeyedRequest } from "../components/offline/keyed_send.ts";

export interface KioskReturnProps {
  staff: KioskStaff;
  open: boolean;
  /** The kiosk's quote; null for an intake kiosk. */
  quoteId: string | null;
}

/** Why the staff return is not offered here yet. */
export const KIOSK_WORK_WAITING =
  "What the client submitted is saved on this tablet but has not reached the store yet. " +
  "Go back to the client's page with the button above while the tablet is online: it is sent " +
  "from there, and the staff return is there once it is sent.";

/**
 * The staff way back from client mode, on kiosk pages that have no island of
 * their own. Not offered while the client's submission waits on the device:
 * it can only be sent while the kiosk session lasts, from the client's page.
 */
export default function KioskReturn({ staff, open, quoteId }: KioskReturnProps) {
  const [waiting, setWaiting] = useState(false);
  useEffect(() => {
    // The id the kiosk's own page keeps its work under (TabletSelect, IntakeForm).
    const id = quoteId ? `tablet:${quoteId}` : "intake:kiosk";
    void restore<unknown, KeyedRequest>(id).then((kept) =>
      // A selection saved through the kiosk's call (PUT /api/quotes/{id}),
      // not a staff preview's (`?view=tablet`), or the kiosk's intake.
      setWaiting(!!kept?.outbox && !(quoteId && kept.outbox.url.includes("?")))
    );
  }, []);
  if (waiting) {
    return (
      <p className="notice notice-warning kiosk-work-waiting" role="status">{KIOSK_WORK_WAITING}</p>
    );
  }
  return <StaffReturn staff={staff} open={open} />;
}
