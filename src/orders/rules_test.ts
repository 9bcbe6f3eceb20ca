import { describe, it } from "node:test";
import { expect } from "expect";
import type { JobStatus } from "../../db/schema.ts";
import {
  addBusinessDays,
  findStep,
  isLate,
  localDate,
  nextSteps,
  orderMoney,
  parseClosedDates,
  parseOpeningDays,
  paymentDateProblem,
  paymentProblem,
  pickupProblem,
  promisedDateProblem,
} from "./rules.ts";

const targets = (status: JobStatus, remakeCount = 0, role = "AUTHORIZED_USER" as const) =>
  nextSteps({ status, remakeCount }, role).map((s) => s.to);

describe("job steps", () => {
  it("offers the next step, a remake after the lab's work, one step back and cancel", () => {
    expect(targets("ORDERED")).toEqual(["SENT_TO_LAB", "CANCELLED"]);
    expect(targets("SENT_TO_LAB")).toEqual(["RECEIVED", "ORDERED", "CANCELLED"]);
    expect(targets("RECEIVED")).toEqual(["CHECKED", "REMAKE", "SENT_TO_LAB", "CANCELLED"]);
    expect(targets("CHECKED")).toEqual(["READY", "REMAKE", "RECEIVED", "CANCELLED"]);
    expect(targets("READY")).toEqual(["PICKED_UP", "REMAKE", "CHECKED", "CANCELLED"]);
    expect(targets("REMAKE", 1)).toEqual(["SENT_TO_LAB", "CANCELLED"]);
    // After a remake, back from the lab returns to REMAKE, not to ORDERED.
    expect(targets("SENT_TO_LAB", 1)).toEqual(["RECEIVED", "REMAKE", "CANCELLED"]);
  });

  it("keeps picked-up and cancelled final; only an owner reopens a pickup", () => {
    expect(targets("PICKED_UP")).toEqual([]);
    expect(targets("CANCELLED")).toEqual([]);
    expect(nextSteps({ status: "PICKED_UP", remakeCount: 0 }, "ADMIN")).toEqual([]);
    expect(nextSteps({ status: "PICKED_UP", remakeCount: 0 }, "OWNER").map((s) => s.to))
      .toEqual(["READY"]);
  });

  it("needs a reason for remake, cancel and reopen only", () => {
    for (const step of nextSteps({ status: "READY", remakeCount: 0 }, "OWNER")) {
      expect(step.needsReason).toBe(step.kind === "remake" || step.kind === "cancel");
    }
    expect(nextSteps({ status: "PICKED_UP", remakeCount: 0 }, "OWNER")[0].needsReason).toBe(true);
  });

  it("refuses other moves with a message naming what is allowed", () => {
    const skip = findStep({ status: "ORDERED", remakeCount: 0 }, "READY", "OWNER");
    expect(skip.ok).toBe(false);
    if (!skip.ok) {
      expect(skip.message).toBe(
        "A job that is ordered cannot move to ready for pickup; it can go to: sent to lab, cancelled.",
      );
    }
    const final = findStep({ status: "PICKED_UP", remakeCount: 0 }, "CANCELLED", "ADMIN");
    expect(final.ok).toBe(false);
    if (!final.ok) expect(final.message).toContain("only an owner can reopen");
    expect(findStep({ status: "CANCELLED", remakeCount: 0 }, "ORDERED", "OWNER").ok).toBe(false);
    expect(findStep({ status: "RECEIVED", remakeCount: 0 }, "REMAKE", "AUTHORIZED_USER").ok)
      .toBe(true);
  });
});

describe("business days", () => {
  const weekdays = [1, 2, 3, 4, 5];
  it("counts only opening days after the order day", () => {
    // 2026-11-27 is a Friday.
    expect(addBusinessDays("2026-11-27", 2, weekdays)).toBe("2026-12-01");
    expect(addBusinessDays("2026-11-27", 0, weekdays)).toBe("2026-11-27");
    expect(addBusinessDays("2026-11-23", 5, weekdays)).toBe("2026-11-30");
    // Open six days: Saturday counts.
    expect(addBusinessDays("2026-11-27", 2, [1, 2, 3, 4, 5, 6])).toBe("2026-11-30");
    // Across a month and year end.
    expect(addBusinessDays("2026-12-31", 1, weekdays)).toBe("2027-01-01");
    expect(addBusinessDays("2027-01-01", 1, weekdays)).toBe("2027-01-04");
    // No opening days set: every day counts.
    expect(addBusinessDays("2026-11-27", 3, [])).toBe("2026-11-30");
  });

  it("skips closed dates: neither counted nor promised", () => {
    // Wednesday 2026-12-23, a 2-day lab, shut on Christmas (Friday): Thursday, then Monday.
    expect(addBusinessDays("2026-12-23", 2, weekdays)).toBe("2026-12-25");
    expect(addBusinessDays("2026-12-23", 2, weekdays, ["2026-12-25"])).toBe("2026-12-28");
    // Several in a row, and one on a weekend day the store never opens (no effect).
    expect(addBusinessDays("2026-12-23", 3, weekdays, ["2026-12-24", "2026-12-25", "2026-12-26"]))
      .toBe("2026-12-30");
    // The order day itself being closed changes nothing: counting starts the day after.
    expect(addBusinessDays("2026-12-25", 1, weekdays, ["2026-12-25"])).toBe("2026-12-28");
    expect(addBusinessDays("2026-12-25", 0, weekdays, ["2026-12-25"])).toBe("2026-12-25");
    // A closed date long after the promise does not move it.
    expect(addBusinessDays("2026-11-27", 2, weekdays, ["2027-07-04"])).toBe("2026-12-01");
  });

  it("reads closed dates as settings keep them: sorted, each once", () => {
    expect(parseClosedDates("2027-01-01,2026-12-25,2026-12-25")).toEqual([
      "2026-12-25",
      "2027-01-01",
    ]);
    expect(parseClosedDates("")).toEqual([]);
    expect(parseClosedDates("nope,2026-12-25,")).toEqual(["2026-12-25"]);
  });

  it("reads opening days and the store's local date", () => {
    expect(parseOpeningDays("5,1,3,3")).toEqual([1, 3, 5]);
    // 03:00 UTC is still the day before in Chicago.
    expect(localDate(new Date("2026-11-27T03:00:00Z"), "America/Chicago")).toBe("2026-11-26");
    expect(localDate(new Date("2026-11-27T03:00:00Z"), "UTC")).toBe("2026-11-27");
  });

  it("turns a job late after its promised day unless it is ready, picked up or cancelled", () => {
    const job = (status: JobStatus) => ({ status, promisedDate: "2026-11-27" });
    expect(isLate(job("SENT_TO_LAB"), "2026-11-27")).toBe(false);
    expect(isLate(job("SENT_TO_LAB"), "2026-11-28")).toBe(true);
    expect(isLate(job("REMAKE"), "2026-11-28")).toBe(true);
    for (const s of ["READY", "PICKED_UP", "CANCELLED"] as JobStatus[]) {
      expect(isLate(job(s), "2026-12-28")).toBe(false);
    }
  });
});

describe("order money", () => {
  it("adds the jobs not cancelled, takes payments off, never below zero", () => {
    const jobs = [
      { status: "ORDERED" as const, totalCents: 18_900 },
      { status: "CANCELLED" as const, totalCents: 15_000 },
    ];
    expect(orderMoney(jobs, [5_000, 1])).toEqual({
      totalCents: 18_900,
      paidCents: 5_001,
      balanceCents: 13_899,
      creditCents: 0,
    });
    expect(orderMoney(jobs, [20_000])).toEqual({
      totalCents: 18_900,
      paidCents: 20_000,
      balanceCents: 0,
      creditCents: 1_100,
    });
  });

  it("refuses a payment over the balance and a refund over what was paid or without reason", () => {
    const money = orderMoney([{ status: "ORDERED", totalCents: 10_000 }], [4_000]);
    expect(paymentProblem(6_000, money, "AUTHORIZED_USER", "")).toBeNull();
    expect(paymentProblem(6_001, money, "AUTHORIZED_USER", "")).toEqual({
      status: 400,
      field: "amount",
      message: "Amount is more than the balance due ($60.00)",
    });
    expect(paymentProblem(-100, money, "AUTHORIZED_USER", "x")?.status).toBe(403);
    expect(paymentProblem(-100, money, "ADMIN", " ")?.field).toBe("reason");
    expect(paymentProblem(-4_001, money, "OWNER", "broken")?.field).toBe("amount");
    expect(paymentProblem(-4_000, money, "OWNER", "broken")).toBeNull();
    expect(paymentProblem(0, money, "OWNER", "")?.field).toBe("amount");
  });

  it("lets a job go with money owed only on an admin's or owner's override with a reason", () => {
    expect(pickupProblem(0, "AUTHORIZED_USER", undefined)).toBeNull();
    expect(pickupProblem(100, "OWNER", undefined)?.status).toBe(409);
    expect(pickupProblem(100, "AUTHORIZED_USER", "trusted")?.status).toBe(403);
    expect(pickupProblem(100, "ADMIN", "trusted")).toBeNull();
  });
});

describe("dates of payments and promises", () => {
  it("a payment: not after today, not more than 90 days before its order", () => {
    expect(paymentDateProblem("2026-11-27", "2026-11-20", "2026-11-27")).toBeNull();
    expect(paymentDateProblem("2026-08-22", "2026-11-20", "2026-11-27")).toBeNull();
    expect(paymentDateProblem("2026-11-28", "2026-11-20", "2026-11-27")).toBe(
      "A payment cannot be dated after today (2026-11-27)",
    );
    expect(paymentDateProblem("2026-08-21", "2026-11-20", "2026-11-27")).toBe(
      "A payment's date must be on or after 2026-08-22 (90 days before the order)",
    );
  });

  it("a promised date: from the order's day to a year from today", () => {
    expect(promisedDateProblem("2026-11-20", "2026-11-20", "2026-11-27")).toBeNull();
    expect(promisedDateProblem("2027-11-27", "2026-11-20", "2026-11-27")).toBeNull();
    expect(promisedDateProblem("2026-11-19", "2026-11-20", "2026-11-27")).toBe(
      "The promised date cannot be before the order (2026-11-20)",
    );
    expect(promisedDateProblem("2027-11-28", "2026-11-20", "2026-11-27")).toBe(
      "The promised date must be on or before 2027-11-27 (a year from today)",
    );
  });
});
