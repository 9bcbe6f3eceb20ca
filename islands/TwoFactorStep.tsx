import { TwoFactorVerify } from "../components/two_factor/TwoFactorVerify.tsx";
import { TwoFactorEnrol } from "../components/two_factor/TwoFactorEnrol.tsx";
import { toast } from "../components/toast.tsx";
import { safeReturnTo } from "../src/http/return_to.ts";

/** The spec's pause on "Welcome back! Redirecting..." before the page changes. */
const LOGIN_REDIRECT_MS = 1000;

export interface TwoFactorStepProps {
  /** A code from the app (or a recovery code), or enrolment the store requires first. */
  step: "verify" | "enrol";
}

/**
 * /staff/two-factor: the step between a right password and a session, for an
 * admin or owner with a second factor (or one the store requires). The sign-in
 * form itself is plain HTML; this step needs a script for the QR code anyway.
 */
export default function TwoFactorStep({ step }: TwoFactorStepProps) {
  function signedIn(returnTo: string | undefined) {
    toast({
      title: "Login Successful",
      description: "Welcome back! Redirecting...",
      variant: "success",
    });
    // The server already decided; the same rule here keeps a tampered answer on the site.
    const target = safeReturnTo(returnTo, location.origin);
    setTimeout(() => location.assign(target), LOGIN_REDIRECT_MS);
  }
  if (step === "verify") return <TwoFactorVerify onDone={signedIn} />;
  // The page's subtitle says why; the form below says how (scan, then enter the code).
  return <TwoFactorEnrol doneLabel="Continue" onDone={(r) => signedIn(r.returnTo)} />;
}
