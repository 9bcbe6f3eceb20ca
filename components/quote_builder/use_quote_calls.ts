// The builder's calls to the API, one mutation each: the builder decides what
// follows each answer (its toasts and state), this only says where each goes.
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../api_client.ts";
import type { QuoteBundle, SaveResult } from "../../src/quotes/views.ts";
import type { ClientMeasurementsView } from "../../src/clients/views.ts";
import type { MeasurementsInput } from "../../src/schemas/client.ts";
import type { savePayload } from "./state.ts";
import type { EmailRequest } from "./email_dialog.tsx";

/** Tells the e-mail flow's two failures apart: saving the address, or sending. */
export class ClientEmailError extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

export function useQuoteCalls(quoteId: string, clientId: string) {
  const quotePath = `/api/quotes/${encodeURIComponent(quoteId)}`;
  const clientPath = `/api/clients/${encodeURIComponent(clientId)}`;
  return {
    quotePath,
    save: useMutation({
      mutationFn: (payload: ReturnType<typeof savePayload>) =>
        apiRequest<SaveResult>("PUT", quotePath, payload),
    }),
    close: useMutation({
      mutationFn: (reason: string) =>
        apiRequest<QuoteBundle>("POST", `${quotePath}/close`, { reason }),
    }),
    reactivate: useMutation({
      mutationFn: () => apiRequest<QuoteBundle>("POST", `${quotePath}/reactivate`),
    }),
    finalize: useMutation({
      mutationFn: () => apiRequest<QuoteBundle>("POST", `${quotePath}/finalize`),
    }),
    reopen: useMutation({
      mutationFn: (reason: string) =>
        apiRequest<QuoteBundle>("POST", `${quotePath}/reopen`, { reason }),
    }),
    measurements: useMutation({
      mutationFn: (input: MeasurementsInput) =>
        apiRequest<ClientMeasurementsView>("PUT", `${clientPath}/measurements`, input),
    }),
    email: useMutation({
      mutationFn: async ({ email, note, updateClient }: EmailRequest) => {
        if (updateClient) {
          try {
            await apiRequest("PUT", clientPath, { email });
          } catch (error) {
            throw new ClientEmailError(error);
          }
        }
        return await apiRequest<{ status: "sent" | "queued"; message: string }>(
          "POST",
          `${quotePath}/email`,
          { email, note },
        );
      },
    }),
    segOc: useMutation({
      mutationFn: ({ optionId, segOc }: { optionId: string; segOc: string }) =>
        apiRequest("PUT", `/api/quote-options/${encodeURIComponent(optionId)}/measurements`, {
          segOc,
        }),
    }),
  };
}
