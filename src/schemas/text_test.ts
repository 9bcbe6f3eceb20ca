import { describe, it } from "node:test";
import { expect } from "expect";
import * as z from "zod";
import {
  CONTROL_CHARS_MESSAGE,
  hasForbiddenChars,
  multilineText,
  safeText,
  visibleLetters,
} from "./text.ts";
import { formErrors, summaryMessage } from "./form_errors.ts";
import { passwordField } from "./users.ts";
import { updateClientSchema } from "./client.ts";
import { updateUserSchema } from "./users.ts";
import { catalogItemSchema } from "./catalog.ts";

const controls = [
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\u000b",
  "\u000c",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0080",
  "\u0085",
  "\u009f",
];

describe("safeText", () => {
  it("refuses NUL and every other C0/C1 control, DEL included, anywhere in the string", () => {
    for (const c of controls) {
      for (const value of [c, `a${c}`, `${c}a`, `ab${c}cd`]) {
        const single = safeText().safeParse(value);
        const multi = multilineText().safeParse(value);
        expect([JSON.stringify(value), single.success, multi.success]).toEqual([
          JSON.stringify(value),
          false,
          false,
        ]);
        expect(single.error?.issues[0].message).toBe(CONTROL_CHARS_MESSAGE);
      }
    }
  });

  it("allows tab and line breaks in multi-line fields only", () => {
    for (const value of ["a\tb", "line 1\nline 2", "dos\r\nline"]) {
      expect(safeText().safeParse(value).success).toBe(false);
      expect(multilineText().parse(value)).toBe(value);
    }
  });

  it("keeps ordinary text, accents, emoji and other scripts", () => {
    for (
      const value of ["", "Ana Ruiz", "José Müller-Łukasz", "山田 太郎", "👓 $1,299.00", "a\u00a0b"]
    ) {
      expect(safeText().parse(value)).toBe(value);
    }
  });

  it("refuses text that is not valid Unicode (a lone surrogate)", () => {
    expect(hasForbiddenChars("a\ud800b")).toBe(true);
    expect(safeText().safeParse("\udc00").success).toBe(false);
    expect(safeText().safeParse("😀").success).toBe(true);
  });

  it("with trim, drops surrounding whitespace first and still checks what is inside", () => {
    expect(safeText({ trim: true }).parse("\t Ana \n")).toBe("Ana");
    expect(safeText({ trim: true }).safeParse(" A\u0000na ").success).toBe(false);
    // NUL is not whitespace: trimming never hides it.
    expect(safeText({ trim: true }).safeParse("\u0000").success).toBe(false);
  });

  it("keeps a field's own message for a missing value", () => {
    const field = z.object({ name: safeText({ error: "Name is required" }) });
    expect(formErrors(field.safeParse({}).error!)).toEqual({ name: "Name is required" });
  });
});

describe("400 messages", () => {
  it("name the field that holds a control character, nested paths included", () => {
    const schema = z.object({
      options: z.array(z.object({ items: z.array(z.object({ name: safeText() })) })),
      note: safeText().min(1, "Note is required"),
    });
    const error = schema.safeParse({
      options: [{ items: [{ name: "ok" }, { name: "bad\u0000" }] }],
      note: "",
    }).error!;
    expect(formErrors(error)).toEqual({
      note: "Note is required",
      "options.0.items.1.name": CONTROL_CHARS_MESSAGE,
    });
    expect(summaryMessage(error)).toBe(
      "options.0.items.1.name: must not contain control characters",
    );
  });

  it("look into unions: the branch the caller meant says what is wrong", () => {
    // {username} and {role} are the two shapes; a NUL in the username names it.
    const user = updateUserSchema.safeParse({ username: "ab\u0000c" }).error!;
    expect(formErrors(user)).toEqual({ username: CONTROL_CHARS_MESSAGE });
    const client = updateClientSchema.safeParse({ firstName: "A\u0000", lastName: "B" }).error!;
    expect(formErrors(client)).toEqual({ firstName: CONTROL_CHARS_MESSAGE });
    // A value of the wrong type for every branch keeps the union's own message.
    const price = catalogItemSchema.safeParse({ name: "X" }).error!;
    expect(summaryMessage(price)).toBe("Price is required");
    expect(formErrors(catalogItemSchema.safeParse({ name: "X", price: "1\u0000" }).error!))
      .toEqual({ price: CONTROL_CHARS_MESSAGE });
  });

  it("keep a field named __proto__ as a field, not a prototype", () => {
    const error = new z.ZodError([
      { code: "custom", path: ["__proto__"], message: "Not allowed", input: 5 },
    ]);
    const errors = formErrors(error);
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(Object.keys(errors)).toEqual(["__proto__"]);
  });
});

describe("passwordField", () => {
  const field = passwordField("Too short");
  it("refuses passwords of only whitespace or invisible characters, whatever kind", () => {
    for (
      const blank of [
        "      ",
        "\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0",
        " \u3000 \u2003   ",
        "\u200b".repeat(6),
        "\u3164".repeat(6),
        "\u2800\u115f\u1160\uffa0\u200d\u2060\ufeff",
        " \u200b \u3164 \u200c ",
      ]
    ) {
      expect(field.safeParse(blank).error?.issues.map((i) => i.message)).toEqual([
        "Password must not be only spaces or invisible characters.",
      ]);
    }
  });
  it("takes any visible character, in any script", () => {
    for (
      const ok of [
        "\u200b\u200b\u200b\u200b\u200bx",
        "пароль!",
        "密码密码密码",
        "€€€€€€",
        "😀😀😀😀😀😀",
      ]
    ) {
      expect(field.safeParse(ok).success).toBe(true);
    }
  });
  it("keeps the length rule and accepts spaces inside", () => {
    expect(field.safeParse("12345").error?.issues[0].message).toBe("Too short");
    expect(field.parse(" pass phrase ")).toBe(" pass phrase ");
    expect(field.safeParse("pass\u0000word").success).toBe(false);
  });
});

describe("visibleLetters", () => {
  it("counts the letters that show, in any script, and none of the invisible ones", () => {
    expect(visibleLetters("Jane Doe")).toBe(7);
    expect(visibleLetters("Łukasiewicz Иванова 李")).toBe(19);
    expect(visibleLetters("\u200b\u200c\u200d\u2060\ufeff\u3164\u115f\u1160\uffa0")).toBe(0);
    expect(visibleLetters("\u00a0 \u3000 . , 1 2 😀")).toBe(0);
    expect(visibleLetters("J\u200bD")).toBe(2);
  });
});
