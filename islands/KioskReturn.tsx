import { type KioskStaff, StaffReturn } from "../components/kiosk/StaffReturn.tsx";

export interface KioskReturnProps {
  staff: KioskStaff;
  open: boolean;
}

/** The staff way back from client mode, on kiosk pages that have no island of their own. */
export default function KioskReturn({ staff, open }: KioskReturnProps) {
  return <StaffReturn staff={staff} open={open} />;
}
