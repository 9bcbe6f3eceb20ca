// The forgotten-password page's only script (no React, no zod): it enhances
// the plain form of components/ForgotPasswordForm.tsx, which without it posts
// to /forgot-password and gets the page again. With it: a blank address is
// refused before any call, the button reads Sending..., the answer comes as
// the spec's toasts, and the form gives way to Check Your Email in place.
import { showToast } from "../components/toast_dom.ts";
import {
  EMAIL_REQUIRED,
  FORGOT_PASSWORD_ANSWER,
} from "../src/schemas/password_recovery_messages.ts";

function enhance(form: HTMLFormElement) {
  const email = form.elements.namedItem("email") as HTMLInputElement;
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  const fieldError = form.querySelector<HTMLElement>("#forgot-email-error")!;
  let busy = false;

  function showFieldError(message: string | undefined) {
    fieldError.textContent = message ?? "";
    fieldError.hidden = !message;
    if (message) {
      email.setAttribute("aria-invalid", "true");
      email.setAttribute("aria-describedby", fieldError.id);
    } else {
      email.removeAttribute("aria-invalid");
      email.removeAttribute("aria-describedby");
    }
  }

  function setBusy(on: boolean) {
    busy = on;
    email.disabled = on;
    submit.disabled = on;
    submit.textContent = on ? "Sending..." : "Send Reset Instructions";
  }

  function showSent() {
    const sent = document.createElement("div");
    sent.className = "stack";
    sent.setAttribute("role", "status");
    const heading = document.createElement("h2");
    heading.className = "card-title";
    heading.textContent = "Check Your Email";
    const answer = document.createElement("p");
    answer.textContent = FORGOT_PASSWORD_ANSWER;
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = "The link works once, for 30 minutes.";
    const back = document.createElement("a");
    back.className = "btn btn-primary btn-block";
    back.href = "/staff";
    back.textContent = "Back to Sign In";
    sent.append(heading, answer, hint, back);
    form.replaceWith(sent);
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (busy) return;
    if (!email.value.trim()) {
      showFieldError(EMAIL_REQUIRED);
      showToast({ title: "Error", description: EMAIL_REQUIRED, variant: "destructive" });
      email.focus();
      return;
    }
    showFieldError(undefined);
    setBusy(true);
    let res: Response;
    let answer: { message?: unknown; errors?: { email?: unknown } } = {};
    try {
      res = await fetch("/api/auth/forgot-password", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        credentials: "same-origin",
        body: JSON.stringify({ email: email.value }),
      });
      answer = await res.json().catch(() => ({}));
    } catch {
      setBusy(false);
      showToast({
        title: "Error",
        description: "Failed to send password reset email",
        variant: "destructive",
      });
      return;
    }
    setBusy(false);
    if (!res.ok) {
      const field = typeof answer.errors?.email === "string" ? answer.errors.email : undefined;
      showFieldError(field);
      showToast({
        title: "Error",
        description: field ??
          (typeof answer.message === "string"
            ? answer.message
            : "Failed to send password reset email"),
        variant: "destructive",
      });
      return;
    }
    showToast({ title: "Success", description: FORGOT_PASSWORD_ANSWER, variant: "success" });
    showSent();
  });
}

const form = document.querySelector<HTMLFormElement>("form[data-forgot-form]");
if (form) enhance(form);
// What the browser tests wait for on every page with a script.
document.documentElement.dataset.hydrated = "true";
