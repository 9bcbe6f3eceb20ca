import * as z from "zod";
import { staffLoginSchema } from "./auth.ts";

/** "Hand to client": the quote whose options the client picks, or a new intake. */
export const handOverSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("QUOTE"), quoteId: z.uuid({ error: "quoteId must be a quote id" }) }),
  z.object({ kind: z.literal("INTAKE") }),
], { error: 'kind must be "QUOTE" (with a quoteId) or "INTAKE"' });
export type HandOverInput = z.infer<typeof handOverSchema>;

/** Taking the tablet back: any staff member's username and password, as at sign-in. */
export const kioskReturnSchema = staffLoginSchema.pick({ username: true, password: true });
export type KioskReturnInput = z.infer<typeof kioskReturnSchema>;
