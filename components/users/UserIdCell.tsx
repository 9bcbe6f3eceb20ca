import { toast } from "../toast.tsx";

/** How much of a user's id the table shows (the spec's id column, short). */
export const SHORT_ID_LENGTH = 8;

/**
 * The spec's id column in short form: the first characters of the id, the
 * whole id as the text's title, and a button that copies it (for a support
 * request or the audit log's filter).
 */
export function UserIdCell({ id, username }: { id: string; username: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(id);
      toast({ title: "Copied", description: `The id of ${username} is on the clipboard.` });
    } catch {
      // No clipboard (an http:// address other than localhost): the id stays selectable.
      toast({
        title: "Could not copy",
        description: `Select the id by hand: ${id}`,
        variant: "destructive",
      });
    }
  }
  return (
    <span className="user-id">
      <code title={id}>{id.slice(0, SHORT_ID_LENGTH)}</code>
      <button
        type="button"
        className="btn btn-ghost btn-sm user-id-copy"
        onClick={copy}
        aria-label={`Copy the id of ${username}`}
      >
        Copy
      </button>
    </span>
  );
}
