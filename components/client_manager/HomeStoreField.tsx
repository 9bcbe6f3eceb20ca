// A chain's client dialog: the client's home store, which staff change when
// the client now goes to another store (kept in the client's history).
import { useId } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest, errorDetail, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import type { ClientDetail } from "../../src/clients/views.ts";
import type { StoreRef } from "../../src/stores/stores.ts";
import { clientDetailKey, successToast } from "./queries.ts";

export function HomeStoreField(
  { client, stores }: { client: ClientDetail; stores: StoreRef[] },
) {
  const id = useId();
  const queryClient = useQueryClient();
  const move = useMutation({
    mutationFn: (homeStoreId: string) =>
      apiRequest<ClientDetail>("PUT", `/api/clients/${encodeURIComponent(client.id)}`, {
        homeStoreId,
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(clientDetailKey(client.id), next);
      successToast("Home store changed");
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({
        title: "The home store was not changed",
        description: errorDetail(error),
        variant: "destructive",
      });
    },
  });
  return (
    <div className="field home-store-field">
      <label htmlFor={`${id}-home`}>Home store</label>
      <select
        id={`${id}-home`}
        value={client.homeStoreId}
        disabled={move.isPending}
        onChange={(e) => move.mutate(e.target.value)}
      >
        {stores.map((s) => <option key={s.id} value={s.id}>{s.name ?? s.code} ({s.code})</option>)}
        {!stores.some((s) => s.id === client.homeStoreId) && (
          <option value={client.homeStoreId}>A store no longer open</option>
        )}
      </select>
    </div>
  );
}
