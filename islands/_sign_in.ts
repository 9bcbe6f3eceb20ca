// The staff sign-in page's only script (no React, no zod): it enhances the
// plain form of components/StaffLoginForm.tsx. Without it the form posts to
// /staff and the server answers with a redirect or the page and its message.
// With it: blank fields are refused before any call, the button reads
// Signing In..., the password can be shown, and the answer comes as the spec's
// toasts before the browser moves on.
import { showToast } from "../components/toast_dom.ts";
import { safeReturnTo } from "../src/http/return_to.ts";

/** Kept equal to TWO_FACTOR_PAGE of src/auth/staff_sign_in.ts (a server module: not imported here). */
const TWO_FACTOR_PAGE = "/staff/two-factor";

/** The spec's pause on "Welcome back! Redirecting..." before the page changes. */
export const LOGIN_REDIRECT_MS = 1000;

function enhance(form: HTMLFormElement) {
  const username = form.elements.namedItem("username") as HTMLInputElement;
  const password = form.elements.namedItem("password") as HTMLInputElement;
  const returnTo = form.elements.namedItem("returnTo") as HTMLInputElement | null;
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const toggle = form.querySelector<HTMLButtonElement>("[data-password-toggle]");
  let busy = false;

  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const show = password.type === "password";
      password.type = show ? "text" : "password";
      toggle.textContent = show ? "Hide" : "Show";
      toggle.setAttribute("aria-pressed", String(show));
      toggle.setAttribute("aria-label", show ? "Hide password" : "Show password");
    });
  }

  function setBusy(on: boolean) {
    busy = on;
    username.disabled = on;
    password.disabled = on;
    submit.disabled = on;
    submit.textContent = on ? "Signing In..." : "Sign In";
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    if (!username.value.trim() || !password.value.trim()) {
      showToast({
        title: "Missing Information",
        description: "Please enter both username and password",
        variant: "destructive",
      });
      return;
    }
    const body = {
      username: username.value,
      password: password.value,
      returnTo: returnTo?.value || undefined,
    };
    setBusy(true);
    let res: Response;
    let answer: { returnTo?: unknown; twoFactor?: unknown; message?: unknown } = {};
    try {
      res = await fetch("/api/staff/login", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        credentials: "same-origin",
        body: JSON.stringify(body),
      });
      answer = await res.json().catch(() => ({}));
    } catch {
      setBusy(false);
      showToast({
        title: "Login Failed",
        description: "The store's server could not be reached. Please try again.",
        variant: "destructive",
      });
      return;
    }
    if (!res.ok) {
      setBusy(false);
      showToast({
        title: "Login Failed",
        description: typeof answer.message === "string"
          ? answer.message
          : "Invalid username or password",
        variant: "destructive",
      });
      return;
    }
    // A right password for an account with a second factor: no session yet, its code first.
    if (answer.twoFactor) {
      location.assign(TWO_FACTOR_PAGE);
      return;
    }
    showToast({
      title: "Login Successful",
      description: "Welcome back! Redirecting...",
      variant: "success",
    });
    // The server already decided; the same rule here keeps a tampered answer on the site.
    const target = safeReturnTo(answer.returnTo, location.origin);
    setTimeout(() => location.assign(target), LOGIN_REDIRECT_MS);
  });
}

const form = document.querySelector<HTMLFormElement>("form[data-sign-in-form]");
if (form) enhance(form);
// What the browser tests wait for on every page with a script.
document.documentElement.dataset.hydrated = "true";
