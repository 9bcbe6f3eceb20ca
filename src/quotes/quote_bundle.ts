// A quote as the builder, the tablet, print and PDF read it: the quote with
// its client, options, items and measurements in one statement.
import { sql } from "kysely";
import { jsonArrayFrom, jsonObjectFrom } from "kysely/helpers/postgres";
import type { DB } from "../db/database.ts";
import { readThrough } from "../db/read_through.ts";
import { isUuid } from "../db/ids.ts";
import { isExpired } from "./rules.ts";
import { carryOverView } from "./carry_over.ts";
import type { QuoteBundle } from "./views.ts";

const money = (col: string) => sql<string>`${sql.ref(col)}::text`;

/**
 * A quote with its client, options, items and the client's measurements, in
 * one statement (the options and their items as nested JSON arrays, in order):
 * the builder and GET /api/quotes/{id} are opened all day.
 */
export async function findQuoteBundle(db: DB, id: string): Promise<QuoteBundle | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom("quotes")
    .innerJoin("clients", "clients.id", "quotes.clientId")
    .leftJoin("heardHowOptions as h", "h.id", "clients.heardHowId")
    .leftJoin("clientMeasurements as m", "m.clientId", "quotes.clientId")
    .select((eb) => [
      "quotes.id",
      "quotes.quoteNumber",
      "quotes.clientId",
      "quotes.opticianName",
      "quotes.status",
      "quotes.internalNotes",
      "quotes.createdAt",
      "quotes.updatedAt",
      "quotes.expiresAt",
      "quotes.closureReason",
      "quotes.footerMessage",
      "quotes.version",
      "quotes.storeId",
      "clients.firstName",
      "clients.middleName",
      "clients.lastName",
      "clients.email",
      "clients.mobilePhone",
      "clients.homePhone",
      sql<string | null>`to_char(clients.dob, 'YYYY-MM-DD')`.as("dob"),
      "clients.address1",
      "clients.address2",
      "clients.city",
      "clients.state",
      "clients.zip",
      "clients.smsConsent",
      "clients.emailConsent",
      "clients.heardHowText",
      "h.label as heardHowLabel",
      // trim_scale as findMeasurements: 62.0 reads "62".
      sql<string | null>`trim_scale(m.pd_binocular)::text`.as("pdBinocular"),
      sql<string | null>`trim_scale(m.pd_near)::text`.as("pdNear"),
      "m.measurementsComplete",
      "m.extras",
      jsonArrayFrom(
        eb.selectFrom("quoteOptions")
          .leftJoin("optionFrameMeasurements as f", "f.optionId", "quoteOptions.id")
          .select((oe) => [
            "quoteOptions.id",
            "quoteOptions.label",
            "quoteOptions.notes",
            "quoteOptions.isChosen",
            money("quoteOptions.shipping").as("shipping"),
            money("quoteOptions.adjustmentAmount").as("adjustmentAmount"),
            "quoteOptions.adjustmentReason",
            money("quoteOptions.subtotal").as("subtotal"),
            "f.segOc",
            jsonArrayFrom(
              oe.selectFrom("optionItems")
                .select([
                  "optionItems.id",
                  "optionItems.kind",
                  "optionItems.name",
                  "optionItems.sku",
                  money("optionItems.unitPrice").as("unitPrice"),
                  "optionItems.qty",
                  "optionItems.notes",
                  "optionItems.catalogId",
                ])
                .whereRef("optionItems.optionId", "=", "quoteOptions.id")
                .orderBy("optionItems.position"),
            ).as("items"),
          ])
          .whereRef("quoteOptions.quoteId", "=", "quotes.id")
          .orderBy("quoteOptions.position"),
      ).as("options"),
      // Only a returning client's new quote has one; same statement, by its key.
      // (The columns of carryOverQuery in src/quotes/carry_over.ts, nested as JSON.)
      jsonObjectFrom(
        eb.selectFrom("quoteCarryOvers as co").select([
          "co.sourceQuoteId",
          "co.sourceQuoteNumber",
          "co.sourceDate",
          sql<string>`trim_scale(co.pd_binocular)::text`.as("pdBinocular"),
          sql<string>`trim_scale(co.pd_near)::text`.as("pdNear"),
          "co.segOc",
          "co.extras",
          "co.confirmedAt",
          "co.confirmedBy",
        ]).whereRef("co.quoteId", "=", "quotes.id"),
      ).as("carryOver"),
    ])
    .where("quotes.id", "=", id).executeTakeFirst();
  if (!row) return undefined;
  const carryOver = row.carryOver ? carryOverView(row.carryOver) : undefined;
  const optionViews = row.options.map(({ segOc, ...o }) => ({
    ...o,
    frameMeasurements: { segOc: segOc ?? "" },
  }));
  const measurements = row.measurementsComplete === null ? undefined : {
    pdBinocular: row.pdBinocular ?? "0",
    pdNear: row.pdNear ?? "0",
    measurementsComplete: row.measurementsComplete,
    extras: row.extras,
  };
  return {
    quote: {
      id: row.id,
      quoteNumber: row.quoteNumber,
      clientId: row.clientId,
      clientName: `${row.firstName} ${row.lastName}`,
      opticianName: row.opticianName,
      status: row.status,
      internalNotes: row.internalNotes,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      isExpired: isExpired(row),
      isClosed: row.status === "CLOSED",
      closureReason: row.closureReason,
      footerMessage: row.footerMessage,
      version: row.version,
      storeId: row.storeId,
    },
    client: {
      id: row.clientId,
      firstName: row.firstName,
      middleName: row.middleName,
      lastName: row.lastName,
      email: row.email,
      mobilePhone: row.mobilePhone,
      homePhone: row.homePhone,
      dob: row.dob,
      address1: row.address1,
      address2: row.address2,
      city: row.city,
      state: row.state,
      zip: row.zip,
      smsConsent: row.smsConsent,
      emailConsent: row.emailConsent,
      heardHow: row.heardHowLabel ??
        (row.heardHowText
          ? `Other: ${row.heardHowText}`
          : row.heardHowText === ""
          ? "Other"
          : null),
    },
    options: optionViews,
    clientMeasurements: {
      pdBinocular: measurements?.pdBinocular ?? "0",
      pdNear: measurements?.pdNear ?? "0",
      measurementsComplete: measurements?.measurementsComplete ?? false,
      extras: (measurements?.extras as Record<string, string>) ?? {},
    },
    frameMeasurements: Object.fromEntries(
      optionViews.map((o) => [o.id, o.frameMeasurements]),
    ),
    // Only when there is one: the answer keeps the spec's shape for every other quote.
    ...(carryOver ? { carryOver } : {}),
  };
}

/** What findQuoteBundle reads. */
const BUNDLE_TABLES = [
  "quotes",
  "clients",
  "heard_how_options",
  "client_measurements",
  "quote_options",
  "option_frame_measurements",
  "option_items",
  "quote_carry_overs",
];

/**
 * findQuoteBundle, kept while none of its tables is written (src/db/read_through.ts)
 * and for at most a second, the time `isExpired` may show late.
 */
export function readQuoteBundle(db: DB, id: string): Promise<QuoteBundle | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  return readThrough(db, {
    key: `quote-bundle:${id.toLowerCase()}`,
    tables: BUNDLE_TABLES,
    maxAgeMs: 1_000,
    load: () => findQuoteBundle(db, id),
  });
}

/**
 * Whether the client has confirmed a choice on the tablet (the quote's first
 * confirmation is kept in accepted_at): then the options marked chosen are the
 * client's, and their client copy says so.
 */
export async function clientHasChosen(db: DB, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const row = await db.selectFrom("quotes").select("acceptedAt").where("id", "=", id)
    .executeTakeFirst();
  return row?.acceptedAt != null;
}
