import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { findMailSettings, MAIL_FAILURE, recordMailOutcome } from "./mail_settings.ts";
import { sendViaSmtp } from "./transport.ts";
import { type Logger, silentLogger } from "../http/logger.ts";
import type { OutboxKind, QuoteStatus } from "../../db/schema.ts";
import { recordAudit } from "../audit/audit_log.ts";
import { withoutLinkTokens } from "../quotes/online_links.ts";

/** Minutes to wait after the 1st, 2nd, … failed attempt; then the message is FAILED. */
export const RETRY_DELAYS_MIN = [1, 5, 15, 30, 60, 120, 240];
export const MAX_ATTEMPTS = RETRY_DELAYS_MIN.length + 1;
/** How long a claimed message is held before another worker may try it. */
const CLAIM_MINUTES = 5;

export interface NewEmail {
  quoteId: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachmentName?: string;
  attachment?: Uint8Array;
  createdBy: string | null;
  /** QUOTE unless said otherwise. */
  kind?: OutboxKind;
  /** The job a ready notice or work order is about. */
  jobId?: string;
  /** When it is first due; now unless said otherwise. */
  sendAt?: Date;
}

export async function enqueueEmail(db: DB, email: NewEmail): Promise<string> {
  const row = await db.insertInto("emailOutbox").values({
    quoteId: email.quoteId,
    toAddress: email.to,
    subject: email.subject,
    html: email.html,
    textBody: email.text,
    attachmentName: email.attachmentName ?? null,
    attachment: email.attachment ?? null,
    createdBy: email.createdBy,
    ...(email.kind ? { kind: email.kind } : {}),
    ...(email.jobId ? { jobId: email.jobId } : {}),
    // Due from a JavaScript instant, not the column's default now(): the
    // database keeps microseconds, a Date only milliseconds, so a send tried
    // in the same millisecond as the insert found the message not yet due and
    // left it to the background worker's next pass.
    nextAttemptAt: email.sendAt ?? new Date(),
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** Where one queued message stands (undefined when there is no such message). */
export async function findOutboxState(db: DB, id: string) {
  const row = await db.selectFrom("emailOutbox").select("status").where("id", "=", id)
    .executeTakeFirst();
  return row?.status;
}

export type DeliveryResult =
  | { status: "sent"; messageId: string }
  | { status: "retrying"; nextAttemptAt: Date }
  | { status: "failed" }
  | { status: "busy" };

/**
 * What a message tried at once after queueing came to, as the person who asked for it is told:
 * "sent" (the mail server took it), "sending" (another process's worker claimed it first and is
 * sending it now), or "queued" with the next try as a time of day ("later" when none is set).
 */
export type SendOutcome =
  | { status: "sent" }
  | { status: "sending" }
  | { status: "queued"; nextTry: string };

const retryTime = new Intl.DateTimeFormat("en-US", { timeStyle: "short" });

export async function sendOutcome(
  db: DB,
  id: string,
  result: DeliveryResult,
): Promise<SendOutcome> {
  if (result.status === "sent") return { status: "sent" };
  if (result.status === "busy") {
    const state = await findOutboxState(db, id);
    if (state === "SENT") return { status: "sent" };
    if (state === "PENDING") return { status: "sending" };
  }
  return {
    status: "queued",
    nextTry: result.status === "retrying" ? retryTime.format(result.nextAttemptAt) : "later",
  };
}

const CLAIMED_COLUMNS = [
  "id",
  "quoteId",
  "toAddress",
  "subject",
  "html",
  "textBody",
  "attachmentName",
  "attachment",
  "attempts",
  "jobId",
  "kind",
] as const;

/**
 * Claims one due message (the given one, or the oldest due) for CLAIM_MINUTES
 * and returns it, or undefined when there is none free. `FOR UPDATE SKIP
 * LOCKED` lets every app process sharing the database claim at the same time
 * without waiting on each other, and never two of them the same row: the row
 * a claim returns is pushed out of the due window before its lock is released.
 * One row per claim, so a lease never runs out while earlier messages of a
 * batch are still being sent.
 */
async function claimDue(db: DB, now: Date, id?: string) {
  return await db.updateTable("emailOutbox")
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_MINUTES * 60_000) })
    .where("id", "in", (eb) => {
      let due = eb.selectFrom("emailOutbox").select("id")
        .where("status", "=", "PENDING").where("nextAttemptAt", "<=", now);
      if (id !== undefined) due = due.where("id", "=", id);
      return due.orderBy("nextAttemptAt").limit(1).forUpdate().skipLocked();
    })
    .returning(CLAIMED_COLUMNS)
    .executeTakeFirst();
}

type Claimed = NonNullable<Awaited<ReturnType<typeof claimDue>>>;

/**
 * Tries to send one queued message now. The row is claimed atomically first,
 * so the request that queued it and the background workers of every app
 * process never both send it. Success marks a quote EMAILED (unless it has
 * moved past that: accepted, finalized or closed).
 */
export async function deliverEmail(
  db: DB,
  secretKey: Uint8Array,
  id: string,
  now = new Date(),
  logger: Logger = silentLogger,
): Promise<DeliveryResult> {
  const claimed = await claimDue(db, now, id);
  if (!claimed) return { status: "busy" };
  return await sendClaimed(db, secretKey, claimed, now, logger);
}

async function sendClaimed(
  db: DB,
  secretKey: Uint8Array,
  claimed: Claimed,
  now: Date,
  logger: Logger,
): Promise<DeliveryResult> {
  const id = claimed.id;
  const settings = await findMailSettings(db, secretKey);
  try {
    if (!settings.configured) throw new Error("Email is not configured");
    const messageId = await sendViaSmtp(settings, {
      to: claimed.toAddress,
      subject: claimed.subject,
      html: claimed.html,
      text: claimed.textBody,
      attachment: claimed.attachment && claimed.attachmentName
        ? { filename: claimed.attachmentName, content: claimed.attachment }
        : undefined,
    });
    await db.transaction().execute(async (trx) => {
      await trx.updateTable("emailOutbox").set({
        status: "SENT",
        sentAt: new Date(),
        messageId,
        attempts: claimed.attempts + 1,
        lastError: null,
        ...keptCopy(claimed),
      }).where("id", "=", id).execute();
      if (claimed.jobId && claimed.kind === "READY_NOTICE") await markNotified(trx, claimed, now);
      if (claimed.quoteId) {
        const before = await trx.selectFrom("quotes").select(["status", "version"])
          .where("id", "=", claimed.quoteId).forUpdate().executeTakeFirst();
        // Sent now, not when it was queued: the history says so here, with
        // the status it moved the quote to.
        if (before) {
          await recordAudit(
            trx,
            { id: null, label: "system" },
            "quote.email_sent",
            "quote",
            claimed.quoteId,
            {
              to: claimed.toAddress,
              outboxId: id,
              ...(EMAILED_STAYS.includes(before.status)
                ? {}
                : { status: { from: before.status, to: "EMAILED" } }),
            },
          );
        }
        // The send bumps the version below; the online links made at the
        // version it had (this e-mail's and earlier ones of the same content)
        // move with it, so the delivery itself does not make them stale.
        if (before) {
          await trx.updateTable("quoteLinks").set({ quoteVersion: before.version + 1 })
            .where("quoteId", "=", claimed.quoteId).where("quoteVersion", "=", before.version)
            .execute();
        }
        await trx.updateTable("quotes").set((eb) => ({
          status: sql`case when status in ('ACCEPTED', 'FINALIZED', 'CLOSED') then status
            else 'EMAILED' end`,
          emailedAt: new Date(),
          version: eb("version", "+", 1),
          updatedAt: new Date(),
        })).where("id", "=", claimed.quoteId).execute();
      }
    });
    await recordMailOutcome(db, "sent");
    return { status: "sent", messageId };
  } catch (err) {
    const attempts = claimed.attempts + 1;
    // The detail (host, port, what the server said) stays in the server log.
    logger.log("warn", "outbox delivery failed", {
      outboxId: id,
      attempt: attempts,
      error: err instanceof Error ? err.message : String(err),
    });
    await recordMailOutcome(db, "failed");
    if (attempts >= MAX_ATTEMPTS) {
      await db.transaction().execute(async (trx) => {
        await trx.updateTable("emailOutbox").set({
          status: "FAILED",
          attempts,
          lastError: MAIL_FAILURE,
          ...keptCopy(claimed),
        }).where("id", "=", id).execute();
        if (claimed.quoteId) {
          await recordAudit(
            trx,
            { id: null, label: "system" },
            "quote.email_failed",
            "quote",
            claimed.quoteId,
            { to: claimed.toAddress, outboxId: id, attempts },
          );
        }
      });
      return { status: "failed" };
    }
    const nextAttemptAt = new Date(now.getTime() + RETRY_DELAYS_MIN[attempts - 1] * 60_000);
    await db.updateTable("emailOutbox").set({ attempts, lastError: MAIL_FAILURE, nextAttemptAt })
      .where("id", "=", id).execute();
    return { status: "retrying", nextAttemptAt };
  }
}

/**
 * The message's body as it is kept once it is sent or given up: without the
 * token of a quote's online link, which lived in the row only to be sent (the
 * reset mail's link is removed the same way, redactResetMails).
 */
const keptCopy = (claimed: Claimed) => ({
  html: withoutLinkTokens(claimed.html),
  textBody: withoutLinkTokens(claimed.textBody),
});

/** The job's "Client notified" time, and a line in its order's history. */
async function markNotified(trx: DB, claimed: Claimed, now: Date) {
  const job = await trx.updateTable("jobs").set({ clientNotifiedAt: now })
    .where("id", "=", claimed.jobId!).returning(["orderId", "jobNumber"]).executeTakeFirst();
  if (!job) return;
  await recordAudit(
    trx,
    { id: null, label: "system" },
    "order.client_notified",
    "order",
    job.orderId,
    {
      jobNumber: job.jobNumber,
      to: claimed.toAddress,
      outboxId: claimed.id,
    },
  );
}

/** Statuses a delivered quote e-mail leaves as they are (the SQL below says the same). */
const EMAILED_STAYS: QuoteStatus[] = ["ACCEPTED", "FINALIZED", "CLOSED", "EMAILED"];

/** Most messages one pass of a worker sends, so a pass ends and shutdown is never held long. */
const BATCH = 20;

/**
 * Sends every message whose time has come, claiming one at a time; returns
 * how many were tried by this caller (other processes may take the rest).
 */
export async function deliverDue(
  db: DB,
  secretKey: Uint8Array,
  now = new Date(),
  logger: Logger = silentLogger,
) {
  let tried = 0;
  while (tried < BATCH) {
    const claimed = await claimDue(db, now);
    if (!claimed) break;
    await sendClaimed(db, secretKey, claimed, now, logger);
    tried++;
  }
  return tried;
}

export interface OutboxBacklog {
  /** Waiting to be sent, due now or later. */
  pending: number;
  /** Pending and due now: a worker should pick these up within one poll. */
  due: number;
  /** Seconds the oldest due message has been waiting past its time (0 when none). */
  oldestDueSeconds: number;
  /** Given up after every retry. */
  failed: number;
}

/** Queue figures for /readyz and /metrics; one query, cheap on the partial index. */
export async function findOutboxBacklog(db: DB, now = new Date()): Promise<OutboxBacklog> {
  const row = await db.selectFrom("emailOutbox")
    .select((eb) => [
      eb.fn.countAll<string>().filterWhere("status", "=", "PENDING").as("pending"),
      eb.fn.countAll<string>().filterWhere("status", "=", "PENDING")
        .filterWhere("nextAttemptAt", "<=", now).as("due"),
      eb.fn.min("nextAttemptAt").filterWhere("status", "=", "PENDING")
        .filterWhere("nextAttemptAt", "<=", now).as("oldestDue"),
      eb.fn.countAll<string>().filterWhere("status", "=", "FAILED").as("failed"),
    ])
    .where("status", "in", ["PENDING", "FAILED"])
    .executeTakeFirstOrThrow();
  const oldestDue = row.oldestDue ? new Date(row.oldestDue as unknown as string | Date) : null;
  return {
    pending: Number(row.pending),
    due: Number(row.due),
    oldestDueSeconds: oldestDue
      ? Math.max(0, Math.round((now.getTime() - oldestDue.getTime()) / 1000))
      : 0,
    failed: Number(row.failed),
  };
}

export interface OutboxWorkerOptions {
  /** Pause between two passes; each process polls on its own. */
  intervalMs?: number;
  /** Called after every pass with how many messages it tried (for /metrics). */
  onPass?: (tried: number) => void;
  /**
   * Work that puts mail in the outbox, done first in every pass (the signed
   * copies still owed to clients), so what it queues goes out in that pass.
   */
  beforePass?: () => Promise<unknown>;
}

/**
 * Retries queued mail in the background until stopped. Every app process runs
 * one; the claims in deliverDue keep them from sending a message twice. The
 * next pass is scheduled when the previous one ends, so a slow mail server
 * never stacks passes up.
 */
export function startOutboxWorker(
  db: DB,
  secretKey: Uint8Array,
  logger: Logger,
  options: OutboxWorkerOptions = {},
): { stop(): Promise<void> } {
  const intervalMs = options.intervalMs ?? 30_000;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  const pass = async () => {
    try {
      await options.beforePass?.();
    } catch (err) {
      logger.log("error", "outbox pass: queueing failed", { error: String(err) });
    }
    try {
      const tried = await deliverDue(db, secretKey, new Date(), logger);
      options.onPass?.(tried);
    } catch (err) {
      logger.log("error", "outbox delivery failed", { error: String(err) });
    }
  };
  const schedule = () => {
    if (stopped) return;
    const next = setTimeout(() => {
      running = pass().then(schedule);
    }, intervalMs);
    Deno.unrefTimer(next);
    timer = next;
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
