import { useEffect, useState, useSyncExternalStore } from "react";
import { TOAST_DURATION_MS, type ToastVariant } from "./toast_rules.ts";

export { TOAST_DURATION_MS, type ToastVariant };

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
}

// One toast at a time: a new toast replaces the one on screen.
let current: Toast | null = null;
let nextId = 1;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function toast(
  input: { title: string; description?: string; variant?: ToastVariant },
): void {
  current = { id: nextId++, variant: "default", ...input };
  emit();
}

export function dismissToast(id?: number): void {
  if (current && (id === undefined || current.id === id)) {
    current = null;
    emit();
  }
}

/** The toast on screen now, if any. */
export function currentToast(): Toast | null {
  return current;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Mounted once per page by the island entry; renders the current toast. */
export function Toaster() {
  const shown = useSyncExternalStore(subscribe, () => current, () => null);
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (!shown || paused) return;
    const timer = setTimeout(() => dismissToast(shown.id), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [shown, paused]);
  return (
    <div className="toast-region" aria-live="polite" aria-atomic="true">
      {shown && (
        <div
          key={shown.id}
          className={`toast toast-${shown.variant}`}
          role={shown.variant === "destructive" ? "alert" : "status"}
          onMouseEnter={() => setPaused(true)}
          onMouseLeave={() => setPaused(false)}
        >
          <div className="toast-text">
            <div className="toast-title">{shown.title}</div>
            {shown.description && <div className="toast-description">{shown.description}</div>}
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label="Dismiss notification"
            onClick={() => dismissToast(shown.id)}
          >
            ×
          </button>
        </div>
      )}
    </div>
  );
}
