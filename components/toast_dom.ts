// The toast for pages that ship no React (the staff sign-in): the same markup,
// classes, roles and timing as the Toaster in toast.tsx, one toast at a time.
import { TOAST_DURATION_MS, type ToastVariant } from "./toast_rules.ts";

let region: HTMLElement | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

function toastRegion(): HTMLElement {
  if (region?.isConnected) return region;
  region = document.createElement("div");
  region.className = "toast-region";
  region.setAttribute("aria-live", "polite");
  region.setAttribute("aria-atomic", "true");
  document.body.append(region);
  return region;
}

export function showToast(
  input: { title: string; description?: string; variant?: ToastVariant },
): void {
  const variant = input.variant ?? "default";
  const host = toastRegion();
  clearTimeout(timer);
  const box = document.createElement("div");
  box.className = `toast toast-${variant}`;
  box.setAttribute("role", variant === "destructive" ? "alert" : "status");
  const text = document.createElement("div");
  text.className = "toast-text";
  const title = document.createElement("div");
  title.className = "toast-title";
  title.textContent = input.title;
  text.append(title);
  if (input.description) {
    const description = document.createElement("div");
    description.className = "toast-description";
    description.textContent = input.description;
    text.append(description);
  }
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", "Dismiss notification");
  close.textContent = "×";
  const dismiss = () => {
    clearTimeout(timer);
    box.remove();
  };
  close.addEventListener("click", dismiss);
  // As in the Toaster: the pointer over the toast keeps it on screen.
  box.addEventListener("mouseenter", () => clearTimeout(timer));
  box.addEventListener("mouseleave", () => (timer = setTimeout(dismiss, TOAST_DURATION_MS)));
  box.append(text, close);
  host.replaceChildren(box);
  timer = setTimeout(dismiss, TOAST_DURATION_MS);
}
