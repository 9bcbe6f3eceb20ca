// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * A sent (or given-up) quote e-mail's stored copy kept its online link in
 * clear: anyone reading the outbox table could accept the quote. From now on
 * the token is taken out once the message is sent; this takes it out of the
 * copies kept before. A message still waiting to go keeps it (it is needed
 * for the send). The link's hash in quote_links is untouched: the client's
 * e-mail keeps working.
 */
const TOKEN = "/q/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])";
const REMOVED = "/q/[link removed after sending]";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE email_outbox
    SET html = regexp_replace(html, ${TOKEN}, ${REMOVED}, 'g'),
      text_body = regexp_replace(text_body, ${TOKEN}, ${REMOVED}, 'g')
    WHERE status <> 'PENDING' AND (html ~ ${TOKEN} OR text_body ~ ${TOKEN})`.execute(db);
}

export async function down(): Promise<void> {
  // The tokens are gone for good: only their hashes were ever meant to be kept.
}
