import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Dialog } from "../Dialog.tsx";
import { apiRequest } from "../api_client.ts";
import type { ClientSummary } from "../../src/clients/views.ts";
import { fullName } from "./format.tsx";
import { CLIENT_LISTS_KEY, clientDetailKey, failureToast, successToast } from "./queries.ts";

export function deleteClientMessage(client: ClientSummary) {
  return `Are you sure you want to delete ${
    fullName(client)
  }? This action cannot be undone. This will also delete all associated quotes and measurements.`;
}

export function DeleteClientDialog(
  { client, onClose, onDeleted }: {
    client: ClientSummary | null;
    onClose: () => void;
    onDeleted: (client: ClientSummary) => void;
  },
) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (target: ClientSummary) =>
      apiRequest<{ message: string }>("DELETE", `/api/clients/${target.id}`),
    onSuccess: async (_answer, target) => {
      successToast("Client deleted successfully");
      queryClient.removeQueries({ queryKey: clientDetailKey(target.id) });
      await queryClient.invalidateQueries({ queryKey: CLIENT_LISTS_KEY });
      onDeleted(target);
    },
    onError: (error) => failureToast(error, "Failed to delete client"),
  });

  function close() {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  }

  return (
    <Dialog
      open={client !== null}
      onClose={close}
      title="Delete Client"
      description={client ? deleteClientMessage(client) : undefined}
      size="sm"
      footer={
        <>
          <button
            type="button"
            className="btn btn-outline"
            onClick={close}
            disabled={remove.isPending}
          >
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={remove.isPending || !client}
            onClick={() => client && remove.mutate(client)}
          >
            {remove.isPending ? "Deleting..." : "Delete"}
          </button>
        </>
      }
    />
  );
}
