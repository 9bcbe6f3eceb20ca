import { describe, it } from "node:test";
import { expect } from "expect";
import type { QuoteBundle } from "../../quotes/views.ts";
import { withoutLinkTokens } from "../../quotes/online_links.ts";
import type { ComposedEmail, MailBranding } from "./MailLayout.tsx";
import { composeQuoteEmail } from "./quote_email.tsx";
import { composePasswordResetEmail } from "./password_reset.tsx";
import { composeTwoFactorResetEmail } from "./two_factor_reset.tsx";
import { composeOnlineAnswerEmail } from "./online_answer.tsx";
import { composeSignedCopyEmail } from "./signed_copy.tsx";
import { composeReadyNotice } from "./ready_notice.tsx";
import { composeWorkOrderEmail } from "./work_order.tsx";
import { composeTestEmail } from "./test_email.tsx";

const STORE: MailBranding = {
  storeName: "Clear View Optics",
  storeAddress: "1 Main St, Springfield",
  storePhone: "(555) 010-0100",
  storeEmail: "hello@clear.test",
  storeWebsite: "clear.test",
};
const TOKEN = "a".repeat(21) + "_-" + "B9".repeat(10); // 43 base64url characters

/** The staff notice of a client's online answer to quote Q-000007. */
const onlineAnswer = (answer: Parameters<typeof composeOnlineAnswerEmail>[1]["answer"]) =>
  composeOnlineAnswerEmail(STORE, {
    quoteNumber: "Q-000007",
    clientName: "Ana Ruiz",
    quoteUrl: "https://store.test/quote/q1",
    answer,
  });

const bundle = (quoteNumber: string, opticianName: string, first: string, last: string) =>
  ({
    quote: { quoteNumber, opticianName },
    client: { firstName: first, lastName: last },
  }) as unknown as QuoteBundle;

/** One message as the tests drive it: made from given values, or every value hostile. */
interface MessageCase {
  name: string;
  /** The fixture's message, and what it must say. */
  fixture: () => ComposedEmail;
  subject: string;
  text: string;
  /** Words the HTML shows (as text) and the links it carries. */
  facts: string[];
  hrefs: string[];
  /** The message with `s` in every text field (branding included) and `url` in every URL. */
  hostile: (branding: MailBranding, s: string, url: string) => ComposedEmail[];
}

const CASES: MessageCase[] = [
  {
    name: "quote e-mail",
    fixture: () =>
      composeQuoteEmail(
        bundle("Q-000007", "Maria Lopez", "Ana", "Ruiz"),
        {
          subjectTemplate: "Your quote {quoteNumber} from {store}",
          bodyTemplate: "Here is your quote from {store}.\n\nAsk {optician} anything.",
        },
        STORE,
        "  Two pairs,\nas we said.  ",
        `https://store.test/q/${TOKEN}`,
      ),
    subject: "Your quote Q-000007 from Clear View Optics",
    text: "Dear Ana Ruiz,\n\nHere is your quote from Clear View Optics.\n\n" +
      "Ask Maria Lopez anything.\n\nTwo pairs,\nas we said.\n\n" +
      "Quote Q-000007 is attached as a PDF.\n\n" +
      `View and accept your quote online:\nhttps://store.test/q/${TOKEN}\n\n` +
      "Clear View Optics\n1 Main St, Springfield\n(555) 010-0100\nhello@clear.test\nclear.test",
    facts: [
      "Dear Ana Ruiz,",
      "Here is your quote from Clear View Optics.",
      "Ask Maria Lopez anything.",
      "Two pairs,\nas we said.",
      "Quote Q-000007 is attached as a PDF.",
      "View and accept your quote online",
    ],
    hrefs: [`https://store.test/q/${TOKEN}`],
    hostile: (b, s, url) => [
      composeQuoteEmail(
        bundle(s, s, s, s),
        { subjectTemplate: `${s} {quoteNumber} {client}`, bodyTemplate: `${s} {optician}` },
        b,
        s,
        url,
      ),
    ],
  },
  {
    name: "password reset",
    fixture: () =>
      composePasswordResetEmail(STORE, {
        name: "Ana",
        username: "ana",
        link: "https://store.test/reset-password?token=abc&x=1",
        minutes: 30,
      }),
    subject: "Reset your Clear View Optics password",
    text: "Hello Ana,\n\nSomeone (hopefully you) asked to reset the password of your " +
      "Clear View Optics staff account (username: ana).\n\n" +
      "Choose a new password here:\nhttps://store.test/reset-password?token=abc&x=1\n\n" +
      "The link works once, for 30 minutes. If you did not ask for this, ignore this e-mail: " +
      "your password stays as it is.\n\nClear View Optics",
    facts: [
      "Hello Ana,",
      "(username: ana)",
      "Choose a new password",
      "Or copy this address into your browser:\nhttps://store.test/reset-password?token=abc&x=1",
      "The link works once, for 30 minutes.",
    ],
    hrefs: ["https://store.test/reset-password?token=abc&x=1"],
    hostile: (b, s, url) => [
      composePasswordResetEmail(b, { name: s, username: s, link: url, minutes: 30 }),
      composePasswordResetEmail(b, {
        name: s,
        username: s,
        link: url,
        minutes: 30,
        requestedBy: s,
      }),
    ],
  },
  {
    name: "two-factor reset notice",
    fixture: () =>
      composeTwoFactorResetEmail(STORE, {
        name: "Ana",
        username: "ana",
        resetBy: "Olga Owner",
        appUrl: "https://store.test",
      }),
    subject: "Your Clear View Optics two-factor sign-in was reset",
    text: "Hello Ana,\n\nOlga Owner reset the two-factor sign-in of your Clear View Optics " +
      "staff account (username: ana). Your authenticator app and your recovery codes no longer " +
      "work for it, and you were signed out everywhere.\n\n" +
      "Sign in again with your password; if the store requires two-factor sign-in you will be " +
      "asked to set it up again: https://store.test/staff\n\n" +
      "If you did not ask for this, tell Olga Owner or another owner of the store at once.\n\n" +
      "Clear View Optics",
    facts: [
      "Hello Ana,",
      "Olga Owner reset the two-factor sign-in of your Clear View Optics staff account",
      "asked to set it up again: https://store.test/staff",
      "tell Olga Owner or another owner",
    ],
    hrefs: ["https://store.test/staff"],
    hostile: (b, s, url) => [
      composeTwoFactorResetEmail(b, { name: s, username: s, resetBy: s, appUrl: url }),
    ],
  },
  {
    name: "online answer to staff (accepted)",
    fixture: () => onlineAnswer({ kind: "accepted", signerName: "Ana M. Ruiz" }),
    subject: "Quote Q-000007 accepted online by Ana M. Ruiz",
    text: "Quote Q-000007 for Ana Ruiz was accepted online by Ana M. Ruiz. It is now finalized; " +
      "the signed copy is with the quote.\n\nOpen the quote: https://store.test/quote/q1\n\n" +
      "Clear View Optics",
    facts: ["was accepted online by Ana M. Ruiz.", "Open the quote: https://store.test/quote/q1"],
    hrefs: ["https://store.test/quote/q1"],
    hostile: (b, s, url) => [
      composeOnlineAnswerEmail(b, {
        quoteNumber: s,
        clientName: s,
        quoteUrl: url,
        answer: { kind: "accepted", signerName: s },
      }),
      composeOnlineAnswerEmail(b, {
        quoteNumber: s,
        clientName: s,
        quoteUrl: url,
        answer: { kind: "declined", message: s },
      }),
    ],
  },
  {
    name: "online answer to staff (declined)",
    fixture: () => onlineAnswer({ kind: "declined", message: "Too dear\nfor now" }),
    subject: "Quote Q-000007 declined online",
    text: "Quote Q-000007 for Ana Ruiz was declined online. The quote stays open for you to act " +
      'on.\n\nThe client wrote: "Too dear\nfor now"\n\n' +
      "Open the quote: https://store.test/quote/q1\n\nClear View Optics",
    facts: ["was declined online.", 'The client wrote: "Too dear\nfor now"'],
    hrefs: ["https://store.test/quote/q1"],
    hostile: () => [],
  },
  {
    name: "signed copy to the client",
    fixture: () =>
      composeSignedCopyEmail(STORE, { quoteNumber: "Q-000007", signerName: "Ana Ruiz" }),
    subject: "Your signed quote Q-000007 from Clear View Optics",
    text: "Dear Ana Ruiz,\n\nThank you for accepting quote Q-000007 online. Your signed copy is " +
      "attached as a PDF; please keep it for your records.\n\nWe will be in touch about the " +
      "next steps. Questions? Reply to this e-mail or call us.\n\n" +
      "Clear View Optics\n(555) 010-0100\nhello@clear.test",
    facts: [
      "Dear Ana Ruiz,",
      "Thank you for accepting quote Q-000007 online.",
      "Reply to this e-mail or call us.",
    ],
    hrefs: [],
    hostile: (b, s) => [composeSignedCopyEmail(b, { quoteNumber: s, signerName: s })],
  },
  {
    name: "ready notice (built-in words)",
    fixture: () =>
      composeReadyNotice(STORE, { subject: null, body: null }, {
        firstName: "Nora",
        jobNumber: "J-000012",
        storeHours: "Mon–Fri 09:00–18:00",
      }),
    subject: "Your glasses are ready",
    text: "Hello Nora,\n\nYour glasses (job J-000012) are ready for pickup at Clear View Optics, " +
      "1 Main St, Springfield." +
      "\n\nOur hours: Mon–Fri 09:00–18:00\n\nSee you soon,\nClear View Optics",
    facts: [
      "Hello Nora,",
      "Your glasses (job J-000012) are ready for pickup at Clear View Optics, 1 Main St, Springfield.",
      "See you soon,\nClear View Optics",
    ],
    hrefs: [],
    hostile: (b, s) => [
      composeReadyNotice(b, { subject: null, body: null }, {
        firstName: s,
        jobNumber: s,
        storeHours: s,
      }),
      composeReadyNotice(b, { subject: `${s} {firstName}`, body: `${s}\n\n{jobNumber}` }, {
        firstName: s,
        jobNumber: s,
        storeHours: s,
      }),
    ],
  },
  {
    name: "ready notice (the store's template)",
    fixture: () =>
      composeReadyNotice(
        STORE,
        { subject: " {firstName}, job {jobNumber} is ready ", body: "Hi {firstName}! {nope}" },
        { firstName: "Nora", jobNumber: "J-000012", storeHours: "Mon–Fri 09:00–18:00" },
      ),
    subject: "Nora, job J-000012 is ready",
    text: "Hi Nora! {nope}",
    facts: ["Hi Nora! {nope}"],
    hrefs: [],
    hostile: () => [],
  },
  {
    name: "work order to the lab",
    fixture: () =>
      composeWorkOrderEmail(STORE, {
        jobNumbers: ["J-000012", "J-000013"],
        accountNumber: "ACC-9",
      }),
    subject: "Work order J-000012, J-000013 · Clear View Optics",
    text: "Work order J-000012, J-000013 from Clear View Optics (account ACC-9). The order is " +
      "attached, one sheet per job.\n\nClear View Optics · (555) 010-0100",
    facts: ["Work order J-000012, J-000013 from Clear View Optics (account ACC-9)."],
    hrefs: [],
    hostile: (b, s) => [composeWorkOrderEmail(b, { jobNumbers: [s, s], accountNumber: s })],
  },
  {
    name: "test e-mail",
    fixture: () => composeTestEmail(STORE),
    subject: "Test email from Clear View Optics",
    text: "This is a test message from Clear View Optics. Quote emails are working.",
    facts: ["This is a test message from Clear View Optics. Quote emails are working."],
    hrefs: [],
    hostile: (b) => [composeTestEmail(b)],
  },
];

/** The elements and attributes a message may have; anything else is a failure. */
const ELEMENTS = new Set([
  "html",
  "head",
  "meta",
  "title",
  "body",
  "table",
  "tbody",
  "tr",
  "td",
  "p",
  "br",
  "a",
  "strong",
  "span",
]);
const ATTRIBUTES = new Set([
  "lang",
  "charset",
  "name",
  "content",
  "style",
  "role",
  "width",
  "cellpadding",
  "cellspacing",
  "align",
  "href",
]);

const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|quot|amp);/gi, (_, e: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", quot: '"', amp: "&" };
    if (e[0] !== "#") return named[e.toLowerCase()];
    return String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1)));
  });

interface Tag {
  name: string;
  closing: boolean;
  attrs: Record<string, string>;
}

/**
 * The document's tags, read the way a browser would: every `<` must open a
 * known kind of tag whose attributes are all quoted; the test fails otherwise.
 */
function tagsOf(html: string): Tag[] {
  expect(html.startsWith("<!doctype html><html")).toBe(true);
  const doc = html.slice("<!doctype html>".length);
  const tags: Tag[] = [];
  for (const m of doc.matchAll(/<(\/?)([A-Za-z][A-Za-z0-9]*)([^<>]*)>/g)) {
    const attrs: Record<string, string> = {};
    const rest = m[3].replace(/\s([A-Za-z-]+)="([^"]*)"/g, (_, name: string, value: string) => {
      attrs[name.toLowerCase()] = decode(value);
      return "";
    });
    expect({ tag: m[2], rest: rest.replace(/\/$/, "").trim() }).toEqual({ tag: m[2], rest: "" });
    tags.push({ name: m[2].toLowerCase(), closing: m[1] === "/", attrs });
  }
  // Every "<" of the document opened one of those tags: none hides in text or an attribute.
  expect(doc.split("<").length - 1).toBe(tags.length);
  return tags;
}

/** What a reader sees: the body's text, tags dropped (a <br> as a line break), entities read. */
function textOf(html: string): string {
  const body = html.slice(html.indexOf("<body"));
  return decode(body.replace(/<br\/?>/g, "\n").replace(/<[^>]*>/g, ""));
}

function expectWellFormed(mail: ComposedEmail) {
  const tags = tagsOf(mail.html);
  const count = (name: string) => tags.filter((t) => t.name === name && !t.closing).length;
  for (const one of ["html", "head", "title", "body"]) expect(count(one)).toBe(1);
  for (const tag of tags) {
    expect(ELEMENTS).toContain(tag.name);
    for (const attr of Object.keys(tag.attrs)) expect(ATTRIBUTES).toContain(attr);
    if (tag.attrs.href !== undefined) expect(tag.attrs.href).toMatch(/^(https?:\/\/|mailto:)/);
  }
  expect(mail.subject).not.toMatch(/[\r\n]/);
  return tags;
}

const hrefsOf = (tags: Tag[]) => tags.flatMap((t) => t.attrs.href ? [t.attrs.href] : []);

describe("every message", () => {
  for (const c of CASES) {
    describe(c.name, () => {
      it("has its subject and its plain-text words", () => {
        const mail = c.fixture();
        expect(mail.subject).toBe(c.subject);
        expect(mail.text).toBe(c.text);
      });

      it("is one HTML document with the same facts and links", () => {
        const mail = c.fixture();
        const tags = expectWellFormed(mail);
        const shown = textOf(mail.html);
        for (const fact of c.facts) expect(shown).toContain(fact);
        const links = hrefsOf(tags);
        for (const href of c.hrefs) expect(links).toContain(href);
        // No link but the message's own and the store's e-mail and web site.
        expect(links.filter((l) => !c.hrefs.includes(l))).toEqual([
          "mailto:hello@clear.test",
          "https://clear.test/",
        ]);
        expect(tags.find((t) => t.name === "title")).toBeDefined();
        expect(mail.html).toContain(`<title>${c.subject}</title>`);
      });

      it("carries the store's branding: its name at the top, its contact block at the foot", () => {
        const shown = textOf(c.fixture().html).trim();
        expect(shown.startsWith(STORE.storeName)).toBe(true);
        const foot = shown.slice(shown.lastIndexOf(STORE.storeName));
        expect(foot).toBe(
          "Clear View Optics\n1 Main St, Springfield\n" +
            "(555) 010-0100 · hello@clear.test · clear.test",
        );
      });
    });
  }
});

describe("a hostile value in any field", () => {
  const SCRIPT = "<script>alert(1)</script>";
  const IMG = '"><img src=x onerror=alert(1)>';
  const HOSTILE = `${SCRIPT}${IMG} & 'x'\r\nBcc: evil@attacker.test`;
  const hostileStore: MailBranding = {
    storeName: HOSTILE,
    storeAddress: HOSTILE,
    storePhone: HOSTILE,
    storeEmail: `${IMG}@x.test`,
    storeWebsite: "javascript:alert(1)",
  };
  const URLS = [
    "javascript:alert(1)",
    " JaVaScRiPt:alert(document.cookie)",
    "data:text/html,<script>alert(1)</script>",
    `https://store.test/q/"><script>alert(1)</script>`,
  ];

  for (const c of CASES) {
    const made = URLS.flatMap((url) => c.hostile(hostileStore, HOSTILE, url));
    if (made.length === 0) continue;
    it(`${c.name}: is text in both parts, never markup or a script link`, () => {
      for (const mail of made) {
        const tags = expectWellFormed(mail);
        // No such element or attribute (every "<" opens a known tag: tagsOf checked it).
        expect(mail.html).not.toMatch(/<script|<img|<[^>]*\son[a-z]+=/i);
        expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
        expect(mail.html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
        // The reader sees the value as typed (its line break a space in the subject).
        expect(textOf(mail.html)).toContain(`${SCRIPT}${IMG} & 'x'`);
        expect(mail.text).toContain(HOSTILE);
        // Only web links survive: a `javascript:` or `data:` address is shown, never linked.
        for (const href of hrefsOf(tags)) expect(href).toMatch(/^https:\/\/store\.test\//);
      }
    });
  }

  it("a link built from APP_URL keeps its token readable for the outbox to take out", () => {
    const mail = CASES[0].fixture();
    expect(mail.html).toContain(`href="https://store.test/q/${TOKEN}"`);
    for (const part of [withoutLinkTokens(mail.html), withoutLinkTokens(mail.text)]) {
      expect(part).not.toContain(TOKEN);
      expect(part).toContain("https://store.test/q/[link removed after sending]");
      expect(part).toContain("View and accept your quote online");
    }
  });

  it("the store's web site and e-mail are links only when they are a web site and an address", () => {
    const site = (storeWebsite: string, storeEmail = STORE.storeEmail) =>
      hrefsOf(tagsOf(composeTestEmail({ ...STORE, storeWebsite, storeEmail }).html));
    expect(site("https://clear.test/frames")).toEqual([
      "mailto:hello@clear.test",
      "https://clear.test/frames",
    ]);
    expect(site("www.clear.test")).toEqual(["mailto:hello@clear.test", "https://www.clear.test/"]);
    expect(site("javascript:alert(1)")).toEqual(["mailto:hello@clear.test"]);
    expect(site("", "not an address")).toEqual([]);
    expect(textOf(composeTestEmail({ ...STORE, storeWebsite: "" }).html)).not.toContain(" · ·");
  });

  it("a quote sent without an online link has none", () => {
    const mail = composeQuoteEmail(
      bundle("Q-000008", "Maria", "Ana", ""),
      { subjectTemplate: "Quote from {store}", bodyTemplate: "Please find your quote attached." },
      STORE,
      "",
    );
    expect(mail.text).not.toContain("online");
    expect(mail.html).not.toContain("online");
    expect(mail.text.startsWith("Dear Ana,\n\nPlease find your quote attached.\n\nQuote Q-000008"))
      .toBe(true);
  });
});
