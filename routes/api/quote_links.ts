import { Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { auditActor } from "../../src/http/actor.ts";
import { notFound } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import { isUuid } from "../../src/db/ids.ts";
import { revokeQuoteLinks } from "../../src/quotes/online_acceptance.ts";
import { findOnlineState } from "../../src/quotes/online_state.ts";
import { signedCopyOf } from "../../src/quotes/online_signed_copy.ts";

export const quoteLinksApi = new Hono<AppEnv>();

quoteLinksApi.use("/quotes/:id/online-links/*", requireUser());
quoteLinksApi.use("/quotes/:id/online", requireUser());
quoteLinksApi.use("/quotes/:id/signed-pdf", requireUser());

/** "Signed copy": the PDF the client was sent when they accepted online. */
quoteLinksApi.get("/quotes/:id/signed-pdf", async (c) => {
  const id = c.req.param("id");
  if (!isUuid(id)) throw notFound("Quote not found");
  const made = await signedCopyOf(c.var.db, c.var.pdf, id);
  if (!made) throw notFound("This quote was not accepted online.");
  return c.body(new Uint8Array(made.pdf), 200, {
    "Content-Type": "application/pdf",
    "Content-Disposition": `inline; filename="${made.filename}"`,
    "Cache-Control": "private, no-store",
  });
});

async function quoteExists(c: { var: AppEnv["Variables"] }, id: string) {
  if (!isUuid(id)) return false;
  return !!await c.var.db.selectFrom("quotes").select("id").where("id", "=", id)
    .executeTakeFirst();
}

/** The quote's online side for the builder: live links, acceptance, declines. */
quoteLinksApi.get("/quotes/:id/online", async (c) => {
  const id = c.req.param("id");
  if (!await quoteExists(c, id)) throw notFound("Quote not found");
  return c.json(await findOnlineState(c.var.db, id));
});

/** "Revoke online links": every link sent for this quote stops working at once. */
quoteLinksApi.post("/quotes/:id/online-links/revoke", async (c) => {
  const id = c.req.param("id");
  if (!await quoteExists(c, id)) throw notFound("Quote not found");
  const revoked = await revokeQuoteLinks(c.var.db, id, auditActor(c));
  return c.json({
    revoked,
    message: revoked === 0
      ? "This quote has no online links to revoke."
      : `${revoked} online ${revoked === 1 ? "link" : "links"} revoked.`,
  });
});
