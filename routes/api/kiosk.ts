import { type Context, Hono } from "hono";
import type { AppEnv } from "../../src/http/app_env.ts";
import { forbidden, HttpError, notFound, readJson, unauthorized } from "../../src/http/errors.ts";
import { requireUser } from "../../src/http/middleware.ts";
import type { AuditActor } from "../../src/audit/audit_log.ts";
import { recordAudit } from "../../src/audit/audit_log.ts";
import { recordChanges } from "../../src/audit/describe.ts";
import { handOverSchema, kioskReturnSchema } from "../../src/schemas/kiosk.ts";
import { consentSchema, createClientSchema } from "../../src/schemas/client.ts";
import { selectionSchema } from "../../src/schemas/quote.ts";
import {
  claimKioskWrite,
  createKioskSession,
  deleteExpiredKioskSessions,
  deleteKioskCookie,
  endKioskSession,
  type KioskSession,
  recordKioskIntake,
  releaseKioskWrite,
  setKioskCookie,
  staffLanding,
} from "../../src/kiosk/kiosk_session.ts";
import { handOverBlocker } from "../../src/kiosk/scope.ts";
import { currentStoreId } from "../../src/stores/current_store.ts";
import { checkStaffPassword } from "../../src/kiosk/staff_password.ts";
import {
  createSession,
  deleteSessionCookie,
  generateSessionToken,
  invalidateSession,
  setSessionCookie,
} from "../../src/auth/session.ts";
import { findQuoteBundle } from "../../src/quotes/quote_bundle.ts";
import { saveSelection } from "../../src/quotes/quote_store.ts";
import {
  CLIENT_HISTORY_FIELDS,
  insertClientWithQuote,
  UnknownHeardHowError,
} from "../../src/clients/clients.ts";
import { insertConsentRecord } from "../../src/clients/consent.ts";
import { tabletQuote } from "../../components/tablet/tablet_view.ts";
import { askDeviceToForget, CLEAR_SITE_DATA } from "../../src/http/device_forget.ts";

/**
 * "Hand to client" and back, and the kiosk's own versions of the few writes
 * it may make. Mounted before the clients and quotes APIs: for a kiosk the
 * handlers here answer; for anyone else they step aside (next()) and the
 * ordinary route runs. src/kiosk/gate.ts has already refused a kiosk
 * everything outside its scope before these run.
 */
export const kioskApi = new Hono<AppEnv>();

function kioskActor(kiosk: KioskSession): AuditActor {
  return { id: null, label: `kiosk (handed over by ${kiosk.handedOverBy.username})` };
}

/** The kiosk's one write is taken (or it has just ended): what the tablet is told. */
function alreadyDone(kiosk: KioskSession): HttpError {
  return forbidden(
    kiosk.kind === "QUOTE"
      ? "Forbidden: your selection has already been confirmed. Please hand the tablet back to your optician."
      : "Forbidden: the intake form has already been submitted on this tablet. Please hand the tablet back to your optician.",
  );
}

/**
 * Staff swap the browser to a kiosk session. The staff session is ended, not
 * parked: its cookie leaves this browser either way, a parked row would be a
 * live staff credential kept while a client holds the device, and the way
 * back needs a staff password anyway and gets a fresh session (as every
 * sign-in does), so nothing would ever resume it.
 */
kioskApi.post("/kiosk/hand-over", requireUser(), async (c) => {
  const input = await readJson(c, handOverSchema);
  const { db, config, clientIp } = c.var;
  const user = c.var.user!;
  let quoteId: string | null = null;
  if (input.kind === "QUOTE") {
    const bundle = await findQuoteBundle(db, input.quoteId);
    if (!bundle) throw notFound("Quote not found");
    const blocker = handOverBlocker(bundle.quote);
    if (blocker) throw new HttpError(409, blocker);
    quoteId = bundle.quote.id;
  }
  await deleteExpiredKioskSessions(db);
  const { token, expiresAt } = await createKioskSession(db, {
    kind: input.kind,
    quoteId,
    handedOverBy: user.id,
    storeId: await currentStoreId(c),
    ip: clientIp,
    userAgent: c.req.header("user-agent"),
  });
  if (c.var.session) await invalidateSession(db, c.var.session.id);
  deleteSessionCookie(c, config.secureCookies);
  setKioskCookie(c, token, expiresAt, config.secureCookies);
  // Back on the tablet must not bring a staff page out of the browser's cache.
  // Browsers honour this in a secure context (https, localhost); elsewhere the
  // no-store answers of signed-in pages are what keeps them out of the cache.
  // The page itself clears the app's stores before it opens the client's
  // page (components/kiosk/HandToClientButton.tsx).
  c.header("Clear-Site-Data", CLEAR_SITE_DATA);
  await recordAudit(
    db,
    { id: user.id, label: user.username },
    "kiosk.start",
    input.kind === "QUOTE" ? "quote" : "intake",
    quoteId,
    { ip: clientIp, expiresAt: expiresAt.toISOString() },
  );
  return c.json({ location: quoteId ? `/tablet/${quoteId}` : "/intake" }, 201);
});

/**
 * Staff take the tablet back: a staff username and password (checked like a
 * sign-in), then a fresh staff session and the quote the kiosk was about.
 * Without a kiosk (it expired while the tablet sat there) it is a plain
 * sign-in that lands on the dashboard.
 */
kioskApi.post("/kiosk/return", async (c) => {
  const input = await readJson(c, kioskReturnSchema);
  const user = await checkStaffPassword(c, input.username, input.password);
  const { db, config, clientIp } = c.var;
  const kiosk = c.var.kiosk;
  if (kiosk) await endKioskSession(db, kiosk.id);
  if (c.var.session) await invalidateSession(db, c.var.session.id);
  const token = generateSessionToken();
  const session = await createSession(db, token, user.id, {
    ip: clientIp,
    userAgent: c.req.header("user-agent"),
  });
  deleteKioskCookie(c, config.secureCookies);
  setSessionCookie(c, token, session, config.secureCookies);
  // What the device kept of the client goes, as after a sign-out: the
  // browser's caches now, the app's stores on the next page. (The kiosk's
  // pages offer this return only once nothing the client submitted is
  // waiting on the device: it could not be sent after this.)
  askDeviceToForget(c, config.secureCookies);
  await recordAudit(db, { id: user.id, label: user.username }, "auth.login", "user", user.id, {
    ip: clientIp,
    via: "kiosk",
    ...(kiosk ? { kiosk: kiosk.kind, handedOverBy: kiosk.handedOverBy.username } : {}),
  });
  return c.json({ returnTo: staffLanding(kiosk) });
});

async function tabletView(c: Context<AppEnv>, quoteId: string) {
  const bundle = await findQuoteBundle(c.var.db, quoteId);
  if (!bundle) throw notFound("Quote not found");
  return tabletQuote(bundle);
}

/** The kiosk's quote as the tablet shows it: never the staff bundle. */
kioskApi.get("/kiosk/quote", async (c) => {
  const kiosk = c.var.kiosk;
  if (!kiosk && !c.var.user) throw unauthorized();
  // Staff read the quote itself (GET /api/quotes/{id}); this is the tablet's.
  if (!kiosk?.quoteId || kiosk.kind !== "QUOTE") throw forbidden();
  return c.json(await tabletView(c, kiosk.quoteId));
});

// The selection save (the spec's PUT /api/quotes/{id} with options only) of
// the kiosk's own quote: once, and answered with the client's view.
kioskApi.put("/quotes/:id", async (c, next) => {
  const kiosk = c.var.kiosk;
  if (!kiosk) return await next();
  const id = c.req.param("id");
  if (kiosk.kind !== "QUOTE" || kiosk.quoteId !== id) throw forbidden();
  const input = await readJson(c, selectionSchema);
  if (!await claimKioskWrite(c.var.db, kiosk.id)) throw alreadyDone(kiosk);
  const result = await saveSelection(c.var.db, id, input, kioskActor(kiosk));
  if (!result.ok) {
    // Refused (a stale version, a closed quote): the client may try again.
    await releaseKioskWrite(c.var.db, kiosk.id);
    throw new HttpError(result.status, result.message);
  }
  return c.json(await tabletView(c, id));
});

// The intake's one client, created for the staff member who handed it over.
kioskApi.post("/clients", async (c, next) => {
  const kiosk = c.var.kiosk;
  if (!kiosk) return await next();
  if (kiosk.kind !== "INTAKE") throw forbidden();
  const input = await readJson(c, createClientSchema);
  const db = c.var.db;
  if (!await claimKioskWrite(db, kiosk.id)) throw alreadyDone(kiosk);
  let created;
  try {
    created = await insertClientWithQuote(db, input, kiosk.handedOverBy.id, kiosk.storeId);
  } catch (err) {
    await releaseKioskWrite(db, kiosk.id);
    if (err instanceof UnknownHeardHowError) {
      throw new HttpError(400, err.message, { heardHowId: err.message });
    }
    throw err;
  }
  await recordKioskIntake(db, kiosk.id, {
    clientId: created.client.id,
    quoteId: created.quote.id,
  });
  await recordAudit(db, kioskActor(kiosk), "client.create", "client", created.client.id, {
    quoteId: created.quote.id,
    via: "kiosk",
    handedOverBy: kiosk.handedOverBy.username,
    changes: recordChanges({}, input, CLIENT_HISTORY_FIELDS),
  });
  return c.json({ client: { id: created.client.id }, quote: { id: created.quote.id } }, 201);
});

// The consent records of the client this intake created, and no other's; the
// signed-out rules apply (one per channel, just after the intake).
kioskApi.post("/consent", async (c, next) => {
  const kiosk = c.var.kiosk;
  if (!kiosk) return await next();
  const input = await readJson(c, consentSchema);
  if (kiosk.kind !== "INTAKE" || !kiosk.clientId || input.clientId !== kiosk.clientId) {
    throw forbidden(
      "Forbidden: this tablet may only record the consent of the client it registered.",
    );
  }
  const result = await insertConsentRecord(c.var.db, input, {
    signedIn: false,
    ip: c.var.clientIp,
  });
  if (!result.ok) throw new HttpError(result.status, result.message);
  return c.json({ id: result.id }, 201);
});
