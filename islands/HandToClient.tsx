import {
  type HandOverTarget,
  HandToClientButton,
} from "../components/kiosk/HandToClientButton.tsx";

export interface HandToClientProps {
  target: HandOverTarget;
}

/** The staff strip on the signed-in intake page: hand this browser to the client. */
export default function HandToClient({ target }: HandToClientProps) {
  return <HandToClientButton target={target} className="btn btn-primary" />;
}
