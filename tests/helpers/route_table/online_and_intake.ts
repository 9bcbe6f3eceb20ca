// Rows of the route table: the public forms: online acceptance of a quote and the intake.
import { ok, page, send } from "./build.ts";
import type { RouteEntry } from "./expectations.ts";

export const ONLINE_AND_INTAKE_ROUTES: RouteEntry[] = [
  // ---- Online acceptance (public: the link's token is the credential) ----
  page("/q/:token", "public", { status: 200, text: "Accept this quote" }, {
    path: async (fx) => (await fx.onlineLink()).path,
  }),
  send("POST", "/q/:token/accept", "public", ok(200), async (fx) => {
    const link = await fx.onlineLink();
    return {
      path: `${link.path}/accept`,
      body: {
        chosenOptionIds: link.optionIds,
        signerName: "Rita Table",
        typedSignature: true,
        termsAccepted: true,
      },
    };
  }),
  send("POST", "/q/:token/decline", "public", ok(200), async (fx) => ({
    path: `${(await fx.onlineLink()).path}/decline`,
    body: { message: "Not now" },
  })),

  // ---- Intake (public) ----
  {
    method: "GET",
    pattern: "/api/settings",
    access: "public",
    ok: ok(200),
    overrides: { KIOSK_INTAKE: ok(200) },
    request: () => Promise.resolve({ path: "/api/settings" }),
  },
  {
    method: "GET",
    pattern: "/api/heard-how-options",
    access: "public",
    ok: ok(200),
    overrides: { KIOSK_INTAKE: ok(200) },
    request: () => Promise.resolve({ path: "/api/heard-how-options" }),
  },
  {
    method: "POST",
    pattern: "/api/clients",
    access: "public",
    ok: ok(201),
    // The intake kiosk registers its one client (each caller here is a fresh kiosk).
    overrides: { KIOSK_INTAKE: ok(201) },
    request: () =>
      Promise.resolve({
        path: "/api/clients",
        body: {
          firstName: "Ivy",
          lastName: "Intake",
          email: "ivy@example.com",
          mobilePhone: "555-010-7777",
          state: "TX",
          heardHowId: "other",
          heardHowText: "A friend",
          smsConsent: true,
        },
      }),
  },
  {
    method: "POST",
    pattern: "/api/consent",
    access: "public",
    ok: ok(201),
    // A kiosk records consent only for the client its own intake registered.
    overrides: {
      KIOSK_INTAKE: { status: 403, text: "only record the consent of the client it registered" },
    },
    request: async (fx) => {
      const { client } = await fx.client();
      return {
        path: "/api/consent",
        body: {
          clientId: client.id,
          type: "SMS",
          statement: "I agree to texts",
          target: "555-010-1234",
          consentGiven: true,
        },
      };
    },
  },
];
