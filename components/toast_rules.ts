/** What both toasts share: the React Toaster (toast.tsx) and the DOM one (toast_dom.ts). */
export type ToastVariant = "default" | "success" | "destructive";

export const TOAST_DURATION_MS = 5000;
