import type { DB } from "../../src/db/database.ts";
import type { QuoteStatus } from "../../db/schema.ts";
import { subtotalDecimal } from "../../src/quotes/rules.ts";

/**
 * Words a quote fixture carries that the tablet never shows. The internal
 * notes are staff-only everywhere; the rest (contact details, optician,
 * option notes) belong on the printed client copy but not on the tablet.
 */
export const STAFF_ONLY = {
  internalNotes: "ZEBRA-7731 client haggles, do not go below cost",
  optionNotes: "WOMBAT-2290 margin is thin",
  opticianName: "Dr. Hidden Opticianson",
  clientEmail: "jane.private@example.com",
  clientPhone: "555-321-9876",
};

/**
 * A client and a saved quote with frame-only options, written straight to
 * the database the way the builder would have saved them.
 */
export async function insertSavedQuote(
  db: DB,
  init: {
    status?: QuoteStatus;
    expiresAt?: Date | null;
    options?: { label: string; sku: string; price: string }[];
    firstName?: string;
  } = {},
): Promise<{ quoteId: string; clientId: string; optionIds: string[] }> {
  const client = await db.insertInto("clients").values({
    firstName: init.firstName ?? "Jane",
    lastName: "Doe",
    email: STAFF_ONLY.clientEmail,
    mobilePhone: STAFF_ONLY.clientPhone,
  }).returning("id").executeTakeFirstOrThrow();
  const quote = await db.insertInto("quotes").values({
    clientId: client.id,
    status: init.status ?? "ACTIVE",
    opticianName: STAFF_ONLY.opticianName,
    internalNotes: STAFF_ONLY.internalNotes,
    expiresAt: init.expiresAt ?? null,
    closureReason: init.status === "CLOSED" ? "Client went elsewhere" : null,
  }).returning("id").executeTakeFirstOrThrow();
  const options = init.options ?? [
    { label: "Everyday", sku: "RB5154-2000", price: "189.00" },
    { label: "Sport Pair", sku: "OK-9102", price: "150.00" },
  ];
  const optionIds: string[] = [];
  for (const [position, option] of options.entries()) {
    const item = {
      kind: "FRAME" as const,
      name: "Ray-Ban",
      sku: option.sku,
      unitPrice: option.price,
      qty: 1,
    };
    const row = await db.insertInto("quoteOptions").values({
      quoteId: quote.id,
      position,
      label: option.label,
      notes: STAFF_ONLY.optionNotes,
      subtotal: subtotalDecimal([item]),
    }).returning("id").executeTakeFirstOrThrow();
    optionIds.push(row.id);
    await db.insertInto("optionItems").values({ optionId: row.id, position: 0, ...item })
      .execute();
  }
  return { quoteId: quote.id, clientId: client.id, optionIds };
}
