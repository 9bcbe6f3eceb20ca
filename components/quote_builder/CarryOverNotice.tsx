import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { apiRequest, errorDetail, isUnauthorized } from "../api_client.ts";
import { toast } from "../toast.tsx";
import type { CarryOverView } from "../../src/quotes/carry_over.ts";
import { pdText } from "./format.tsx";
import { DateText } from "../client_manager/format.tsx";

/**
 * A returning client's new quote started from the last quote's measurements:
 * the builder says where they came from and asks for them to be confirmed at
 * the chair. Confirmed, the mark stays as a quiet line.
 */
export function CarryOverNotice(
  { quoteId, initial, readOnly }: {
    quoteId: string;
    initial: CarryOverView | null;
    readOnly: boolean;
  },
) {
  const [carry, setCarry] = useState(initial);
  const confirm = useMutation({
    mutationFn: () =>
      apiRequest<CarryOverView>(
        "POST",
        `/api/quotes/${encodeURIComponent(quoteId)}/carry-over/confirm`,
      ),
    onSuccess: (view) => {
      setCarry(view);
      toast({ title: "Success", description: "Measurements confirmed", variant: "success" });
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({
        title: "Error",
        description: errorDetail(error) ?? "Failed to confirm measurements",
        variant: "destructive",
      });
    },
  });
  if (!carry) return null;
  const source = (
    <>
      carried over from {carry.sourceQuoteNumber}, <DateText iso={carry.sourceDate} />
    </>
  );
  if (carry.confirmedAt) {
    return (
      <p className="hint qb-carry-done" data-testid="carry-over">
        Measurements {source}; confirmed by {carry.confirmedBy ?? "staff"}.
      </p>
    );
  }
  const extras = Object.entries(carry.extras);
  return (
    <div className="notice notice-warning qb-carry" role="status" data-testid="carry-over">
      <p>
        <strong>Measurements {source}</strong> — to be confirmed: PD D{" "}
        {pdText(carry.pdBinocular)}, PD N {pdText(carry.pdNear)}, SEG/OC{" "}
        {carry.segOc || "not recorded"}
        {extras.map(([name, value]) => `, ${name} ${value}`).join("")}.
      </p>
      {!readOnly && (
        <button
          type="button"
          className="btn btn-outline btn-sm"
          disabled={confirm.isPending}
          onClick={() => confirm.mutate()}
        >
          {confirm.isPending ? "Confirming..." : "Confirm measurements"}
        </button>
      )}
    </div>
  );
}
