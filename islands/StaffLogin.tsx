import { type FormEvent, useState } from "react";
import { apiRequest, errorDetail } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { OWNER_INTENT, staffLoginSchema } from "../src/schemas/auth.ts";
import { safeReturnTo } from "../src/http/return_to.ts";
import { TwoFactorVerify } from "../components/two_factor/TwoFactorVerify.tsx";
import { TwoFactorEnrol } from "../components/two_factor/TwoFactorEnrol.tsx";

export interface StaffLoginProps {
  returnTo?: string;
  ownerSignInConfigured: boolean;
}

export const LOGIN_REDIRECT_MS = 1000;

export default function StaffLogin({ returnTo, ownerSignInConfigured }: StaffLoginProps) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [secondStep, setSecondStep] = useState<"verify" | "enrol" | null>(null);

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

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (!username.trim() || !password.trim()) {
      toast({
        title: "Missing Information",
        description: "Please enter both username and password",
        variant: "destructive",
      });
      return;
    }
    const input = staffLoginSchema.parse({ username, password, returnTo });
    setBusy(true);
    try {
      const result = await apiRequest<{ returnTo?: string; twoFactor?: "verify" | "enrol" }>(
        "POST",
        "/api/staff/login",
        input,
      );
      if (result.twoFactor) {
        setBusy(false);
        setSecondStep(result.twoFactor);
        return;
      }
      signedIn(result.returnTo);
    } catch (error) {
      setBusy(false);
      toast({
        title: "Login Failed",
        description: errorDetail(error) ?? "Invalid username or password",
        variant: "destructive",
      });
    }
  }

  // intent=owner is what sends /api/login on to the provider (see routes/api/auth.ts).
  const ownerParams = new URLSearchParams({ intent: OWNER_INTENT });
  if (returnTo) ownerParams.set("returnTo", returnTo);
  const ownerHref = `/api/login?${ownerParams}`;

  if (secondStep === "verify") return <TwoFactorVerify onDone={signedIn} />;
  if (secondStep === "enrol") {
    return (
      <div className="stack">
        <p className="notice notice-info">
          This store requires two-factor sign-in for admins and owners. Set it up now to continue.
        </p>
        <TwoFactorEnrol doneLabel="Continue" onDone={(r) => signedIn(r.returnTo)} />
      </div>
    );
  }

  return (
    <form className="stack" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor="username">Username</label>
        <input
          id="username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          disabled={busy}
          autoFocus
        />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <div className="input-with-action">
          <input
            id="password"
            name="password"
            type={showPassword ? "text" : "password"}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            disabled={busy}
          />
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-pressed={showPassword}
            aria-label={showPassword ? "Hide password" : "Show password"}
            onClick={() => setShowPassword((v) => !v)}
          >
            {showPassword ? "Hide" : "Show"}
          </button>
        </div>
      </div>
      <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
        {busy ? "Signing In..." : "Sign In"}
      </button>
      <a className="link center" href="/forgot-password">Forgot your password?</a>
      <div className="divider" role="separator">
        <span>or</span>
      </div>
      <a className="btn btn-outline btn-block" href={ownerHref}>Owner Login</a>
      {!ownerSignInConfigured && (
        <p className="hint center">Owner sign-in is not configured on this store.</p>
      )}
    </form>
  );
}
