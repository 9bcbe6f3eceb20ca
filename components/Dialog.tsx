import { type ReactNode, useEffect, useId, useRef } from "react";

/**
 * A modal on the native <dialog>: focus is trapped and restored by the
 * browser, Escape closes it, and the page behind is inert. Its content is
 * mounted only while it is open, so a form in it starts from its initial
 * values at every opening. While `busy` (a request it sent is under way)
 * nothing closes it: Escape, the backdrop and × wait.
 */
export function Dialog(
  { open, busy = false, onClose: close, title, description, children, footer, size = "md" }: {
    open: boolean;
    busy?: boolean;
    onClose: () => void;
    title: string;
    description?: ReactNode;
    children?: ReactNode;
    footer?: ReactNode;
    size?: "sm" | "md" | "lg";
  },
) {
  const ref = useRef<HTMLDialogElement>(null);
  const onClose = () => {
    if (!busy) close();
  };
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${size}`}
      // The title and description exist only while open; so do references to them.
      aria-labelledby={open ? titleId : undefined}
      aria-describedby={open && description ? descriptionId : undefined}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop lands on the <dialog> element itself.
        if (e.target === ref.current) onClose();
      }}
    >
      {open && (
        <div className="dialog-body">
          <div className="dialog-head">
            <h2 id={titleId} className="dialog-title">{title}</h2>
            <button type="button" className="dialog-close" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </div>
          {description && (
            <div id={descriptionId} className="dialog-description">{description}</div>
          )}
          {children}
          {footer && <div className="dialog-footer">{footer}</div>}
        </div>
      )}
    </dialog>
  );
}
