import type { DB } from "../db/database.ts";
import type { ConsentInput } from "../schemas/client.ts";
import { findClientContacts } from "./clients.ts";

/** How long after an intake a signed-out caller may still record its consents. */
export const INTAKE_CONSENT_WINDOW_MS = 15 * 60 * 1000;

export type ConsentResult =
  | { ok: true; id: string }
  | { ok: false; status: 400 | 409; message: string; field?: string };

const digits = (s: string | null | undefined) => (s ?? "").replace(/\D/g, "");

/**
 * The one refusal for an unknown client, a target that is not the client's,
 * and (signed out) a client outside the intake window: answering them apart
 * would let anyone probe which client ids exist.
 */
function refused(input: ConsentInput): ConsentResult {
  const message = input.type === "SMS"
    ? "The consent target must be the client's phone number"
    : "The consent target must be the client's e-mail address";
  return { ok: false, status: 400, message, field: "target" };
}

/**
 * Records the consent statement a client saw and the contact it covers. The
 * target must be the client's own phone (SMS) or e-mail (EMAIL). A signed-out
 * caller (the intake tablet) may only add the first record of each type, and
 * only just after creating the client, so the public route cannot be used to
 * write consents for other clients.
 */
export async function insertConsentRecord(
  db: DB,
  input: ConsentInput,
  context: { signedIn: boolean; ip: string; now?: Date },
): Promise<ConsentResult> {
  const now = context.now ?? new Date();
  const client = await findClientContacts(db, input.clientId);
  if (!client) return refused(input);
  const matches = input.type === "SMS"
    ? digits(input.target).length >= 7 &&
      [client.mobilePhone, client.homePhone].some((p) => digits(p) === digits(input.target))
    : input.target.toLowerCase() === (client.email ?? "").toLowerCase();
  if (!matches) return refused(input);
  if (!context.signedIn) {
    if (now.getTime() - client.createdAt.getTime() > INTAKE_CONSENT_WINDOW_MS) {
      return refused(input);
    }
    const existing = await db.selectFrom("consentRecords").select("id")
      .where("clientId", "=", client.id).where("consentType", "=", input.type)
      .executeTakeFirst();
    if (existing) {
      return { ok: false, status: 409, message: "This consent has already been recorded" };
    }
  }
  const row = await db.insertInto("consentRecords").values({
    clientId: client.id,
    consentType: input.type,
    statement: input.statement,
    target: input.target,
    consentGiven: input.consentGiven,
    ip: context.ip,
    createdAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return { ok: true, id: row.id };
}
