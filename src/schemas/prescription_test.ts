import { describe, it } from "node:test";
import { expect } from "expect";
import { prescriptionSchema } from "./prescription.ts";
import { formErrors } from "./form_errors.ts";

const base = {
  dateWritten: "2025-03-01",
  prescriber: "Dr. Lee",
  rightEye: { sphere: "-1.00" },
  leftEye: { sphere: "-1.25" },
};

/** Field errors of a prescription whose right eye has `eye` (the left eye stays valid). */
function rightEyeErrors(eye: Record<string, unknown>) {
  const parsed = prescriptionSchema.safeParse({ ...base, rightEye: eye });
  return parsed.success ? {} : formErrors(parsed.error);
}

const ok = (eye: Record<string, unknown>) => expect(rightEyeErrors(eye)).toEqual({});

describe("prescription validation table", () => {
  // [field, value, expected error or null (valid)]
  const sphereRows: Array<[unknown, string | null]> = [
    ["-30.00", null],
    ["-30", null],
    ["+30.00", null],
    [30, null],
    ["-30.25", "Sphere must be between -30.00 and +30.00"],
    ["+30.25", "Sphere must be between -30.00 and +30.00"],
    ["-2.13", "Sphere must be in steps of 0.25"],
    ["0.10", "Sphere must be in steps of 0.25"],
    [-2.1, "Sphere must be in steps of 0.25"],
    ["0", null],
    ["PL", null],
    ["plano", null],
    ["+0.25", null],
    ["1.250", null],
    ["1.251", "Sphere must be a number like -2.25 or +1.00"],
    ["abc", "Sphere must be a number like -2.25 or +1.00"],
    ["--1", "Sphere must be a number like -2.25 or +1.00"],
    ["", "Sphere is required"],
    [null, "Sphere is required"],
  ];
  for (const [value, error] of sphereRows) {
    it(`sphere ${JSON.stringify(value)} → ${error ?? "valid"}`, () => {
      const errors = rightEyeErrors({ sphere: value });
      expect(errors["rightEye.sphere"]).toBe(error ?? undefined);
    });
  }

  const cylinderRows: Array<[unknown, string | null]> = [
    ["-15.00", null],
    ["+15.00", null],
    ["-15.25", "Cylinder must be between -15.00 and +15.00"],
    ["15.25", "Cylinder must be between -15.00 and +15.00"],
    ["-0.30", "Cylinder must be in steps of 0.25"],
    ["-0.25", null],
  ];
  for (const [value, error] of cylinderRows) {
    it(`cylinder ${JSON.stringify(value)} (axis 90) → ${error ?? "valid"}`, () => {
      const errors = rightEyeErrors({ sphere: "0", cylinder: value, axis: 90 });
      expect(errors["rightEye.cylinder"]).toBe(error ?? undefined);
    });
  }

  it("axis is required exactly when the cylinder is not zero", () => {
    ok({ sphere: "-1", cylinder: "-0.50", axis: 180 });
    ok({ sphere: "-1", cylinder: "-0.50", axis: "1" });
    ok({ sphere: "-1" });
    ok({ sphere: "-1", cylinder: "" });
    ok({ sphere: "-1", cylinder: "0", axis: "" });
    ok({ sphere: "-1", cylinder: "0.00" });
    expect(rightEyeErrors({ sphere: "-1", cylinder: "-0.50" })).toEqual({
      "rightEye.axis": "Axis is required when there is a cylinder",
    });
    expect(rightEyeErrors({ sphere: "-1", cylinder: "+0.50", axis: "" })["rightEye.axis"])
      .toBe("Axis is required when there is a cylinder");
    expect(rightEyeErrors({ sphere: "-1", axis: 90 })["rightEye.axis"])
      .toBe("Axis is given only with a cylinder");
    expect(rightEyeErrors({ sphere: "-1", cylinder: "0", axis: 90 })["rightEye.axis"])
      .toBe("Axis is given only with a cylinder");
  });

  const axisRows: Array<[unknown, string | null]> = [
    [1, null],
    [180, null],
    ["90", null],
    [0, "Axis must be a whole number from 1 to 180"],
    [181, "Axis must be a whole number from 1 to 180"],
    ["90.5", "Axis must be a whole number from 1 to 180"],
    [90.5, "Axis must be a whole number from 1 to 180"],
    ["-5", "Axis must be a whole number from 1 to 180"],
    ["x", "Axis must be a whole number from 1 to 180"],
  ];
  for (const [value, error] of axisRows) {
    it(`axis ${JSON.stringify(value)} with a cylinder → ${error ?? "valid"}`, () => {
      const errors = rightEyeErrors({ sphere: "0", cylinder: "-1.00", axis: value });
      expect(errors["rightEye.axis"]).toBe(error ?? undefined);
    });
  }

  const addRows: Array<[unknown, string | null]> = [
    ["+0.25", null],
    ["4.00", null],
    ["", null],
    ["0", "Add must be between +0.25 and +4.00"],
    ["+4.25", "Add must be between +0.25 and +4.00"],
    ["-1.00", "Add must be between +0.25 and +4.00"],
    ["2.10", "Add must be in steps of 0.25"],
  ];
  for (const [value, error] of addRows) {
    it(`add ${JSON.stringify(value)} → ${error ?? "valid"}`, () => {
      expect(rightEyeErrors({ sphere: "0", add: value })["rightEye.add"]).toBe(error ?? undefined);
    });
  }

  const prismRows: Array<[unknown, unknown, string, string | null]> = [
    ["0.25", "up", "amount", null],
    ["20", "in", "amount", null],
    ["1.5", "out", "amount", null],
    ["0.20", "down", "amount", "Prism must be between 0.25 and 20.00"],
    ["20.25", "down", "amount", "Prism must be between 0.25 and 20.00"],
    ["1.125", "up", "amount", "Prism must be a number with at most two decimals"],
    ["2", "", "base", "Choose the prism's base"],
    ["", "up", "amount", "Enter the prism amount"],
    ["2", "left", "base", "Base must be up, down, in or out"],
  ];
  for (const [amount, baseValue, field, error] of prismRows) {
    it(
      `prism ${JSON.stringify(amount)} base ${JSON.stringify(baseValue)} → ${error ?? "valid"}`,
      () => {
        const errors = rightEyeErrors({ sphere: "0", prism: { amount, base: baseValue } });
        expect(errors[`rightEye.prism.${field}`]).toBe(error ?? undefined);
      },
    );
  }

  it("an empty prism is no prism", () => {
    const parsed = prescriptionSchema.parse({
      ...base,
      rightEye: { sphere: "0", prism: { amount: "", base: "" } },
    });
    expect(parsed.rightEye.prism).toBe(null);
  });

  it("answers canonical decimal strings", () => {
    const parsed = prescriptionSchema.parse({
      ...base,
      expiresOn: "",
      rightEye: {
        sphere: "+2",
        cylinder: "-.5",
        axis: "5",
        add: 1.5,
        prism: { amount: 1, base: "in" },
      },
      leftEye: { sphere: "PL" },
    });
    expect(parsed.rightEye).toEqual({
      sphere: "2.00",
      cylinder: "-0.50",
      axis: 5,
      add: "1.50",
      prism: { amount: "1.00", base: "in" },
    });
    expect(parsed.leftEye).toEqual({
      sphere: "0.00",
      cylinder: null,
      axis: null,
      add: null,
      prism: null,
    });
    expect(parsed.expiresOn).toBe(null);
    expect(parsed.notes).toBe("");
  });

  it("checks the dates, the prescriber and both eyes", () => {
    const errors = (input: Record<string, unknown>) => {
      const parsed = prescriptionSchema.safeParse({ ...base, ...input });
      return parsed.success ? {} : formErrors(parsed.error);
    };
    expect(errors({ dateWritten: "" }).dateWritten).toBe("Date written is required");
    expect(errors({ dateWritten: "2025-02-30" }).dateWritten)
      .toBe("Date written must be a date (YYYY-MM-DD)");
    expect(errors({ dateWritten: "2999-01-01" }).dateWritten)
      .toBe("Date written cannot be in the future");
    expect(errors({ expiresOn: "2025-02-28" }).expiresOn)
      .toBe("Expiry date cannot be before the date written");
    expect(errors({ expiresOn: "2025-03-01" })).toEqual({});
    expect(errors({ prescriber: "  " }).prescriber).toBe("Prescriber is required");
    expect(errors({ prescriber: "x".repeat(121) }).prescriber)
      .toBe("Prescriber must be at most 120 characters");
    expect(errors({ prescriber: "Dr\u0000" }).prescriber).toBe(
      "Must not contain control characters",
    );
    expect(errors({ leftEye: undefined })).toEqual({ leftEye: "Enter this eye's values" });
    expect(errors({ notes: "line one\nline two" })).toEqual({});
  });
});
