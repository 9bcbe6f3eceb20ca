import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import {
  CLIENT_PAGE_SIZE,
  type ClientDetail,
  type ClientSummary,
  type ConsentTexts,
  type HeardHowOption,
} from "../../src/clients/views.ts";

export type ListMode = "all" | "missing" | "search";

/** Every list query starts with this, so one invalidation refreshes them all. */
export const CLIENT_LISTS_KEY = ["clients"] as const;
export const clientListKey = (mode: ListMode, q: string) => ["clients", mode, q] as const;
export const clientDetailKey = (id: string) => ["client", id] as const;
export const HEARD_HOW_KEY = ["/api/heard-how-options"] as const;
export const CONSENT_TEXTS_KEY = ["/api/settings"] as const;

export function clientListUrl(mode: ListMode, q: string, offset: number): string {
  const page = `limit=${CLIENT_PAGE_SIZE}&offset=${offset}`;
  if (mode === "search") return `/api/clients/search?q=${encodeURIComponent(q)}&${page}`;
  if (mode === "missing") return `/api/clients/missing-measurements?${page}`;
  return `/api/clients?${page}`;
}

export const fetchClientPage = (mode: ListMode, q: string, offset: number) =>
  apiRequest<ClientSummary[]>("GET", clientListUrl(mode, q, offset));

/** Toasts read like the intake's: a one-word title, the spec's sentence below it. */
export function successToast(message: string) {
  toast({ title: "Success", description: message, variant: "success" });
}

export function failureToast(error: unknown, message: string) {
  if (isUnauthorized(error)) return;
  toast({ title: "Error", description: message, variant: "destructive" });
}

export function useClientDetail(id: string | null, initial?: ClientDetail) {
  return useQuery({
    queryKey: clientDetailKey(id ?? ""),
    queryFn: () => apiRequest<ClientDetail>("GET", `/api/clients/${encodeURIComponent(id!)}`),
    enabled: id !== null,
    initialData: initial && initial.id === id ? initial : undefined,
  });
}

export function useHeardHowOptions(initial?: HeardHowOption[]) {
  return useQuery({
    queryKey: HEARD_HOW_KEY,
    queryFn: () => apiRequest<HeardHowOption[]>("GET", "/api/heard-how-options"),
    initialData: initial,
  });
}

export function useConsentTexts(initial?: ConsentTexts) {
  return useQuery({
    queryKey: CONSENT_TEXTS_KEY,
    queryFn: () => apiRequest<ConsentTexts>("GET", "/api/settings"),
    initialData: initial,
  });
}

/** A short pause so the success toast is seen before the page changes. */
export const NAVIGATE_DELAY_MS = 600;

export function goTo(path: string, delay = NAVIGATE_DELAY_MS) {
  setTimeout(() => location.assign(path), delay);
}

/** New Quote, from a card or from the detail dialog. */
export function useCreateQuote() {
  return useMutation({
    mutationFn: (clientId: string) =>
      apiRequest<{ id: string; quoteNumber: string }>("POST", "/api/quotes", { clientId }),
    onSuccess: (quote) => {
      successToast("New quote created successfully");
      goTo(`/quote/${quote.id}`);
    },
    onError: (error) => failureToast(error, "Failed to create quote"),
  });
}

export function useInvalidateClient() {
  const queryClient = useQueryClient();
  return (id: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: CLIENT_LISTS_KEY }),
      queryClient.invalidateQueries({ queryKey: clientDetailKey(id) }),
    ]);
}
