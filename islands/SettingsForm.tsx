import { ACCEPTANCE_TERMS_FALLBACK } from "../src/settings/acceptance_terms.ts";
import { type FormEvent, useEffect, useId, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as z from "zod";
import { ApiError, apiRequest, isUnauthorized } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { useValidatedForm } from "../components/use_validated_form.ts";
import { SettingsCard, SettingsField } from "../components/settings/fields.tsx";
import { ImageUpload } from "../components/settings/ImageUpload.tsx";
import { ClosedDatesField } from "../components/settings/ClosedDatesField.tsx";
import { type SettingsInput, settingsSchema, testEmailSchema } from "../src/schemas/settings.ts";
import type { findAdminSettings } from "../src/settings/admin_settings.ts";
import type { EmailStatus } from "../src/mail/mail_settings.ts";
import { STORE_FALLBACKS } from "../src/settings/settings.ts";
import { Checkbox } from "../components/Checkbox.tsx";

export type AdminSettings = Awaited<ReturnType<typeof findAdminSettings>>;

export interface SettingsFormProps {
  initialSettings: AdminSettings;
  initialEmailStatus: EmailStatus;
  /** The logo and favicon in use now (fallbacks included), for the Branding card. */
  currentLogoUrl: string;
  currentFaviconUrl: string;
  /** The store's today (YYYY-MM-DD): closed dates before it are past. */
  today: string;
}

/** What the form edits: text as typed, so a half-typed number is kept as it is. */
type FormValues = {
  storeName: string;
  storePhone: string;
  storeEmail: string;
  storeAddress: string;
  storeWebsite: string;
  footerMessage: string;
  acceptanceTermsText: string;
  quoteExpirationEnabled: boolean;
  quoteExpirationDays: string;
  smtpHost: string;
  smtpPort: string;
  smtpUser: string;
  smtpPassword: string;
  removePassword: boolean;
  smtpFromEmail: string;
  smtpFromName: string;
  smtpAllowInsecure: boolean;
  emailSubject: string;
  emailBody: string;
  openingDays: string;
  closedDates: string;
  openingTime: string;
  closingTime: string;
  timeZone: string;
  readyEmailSubject: string;
  readyEmailBody: string;
  readyUndoMinutes: string;
  readyWaitingDays: string;
};

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function toValues(s: AdminSettings): FormValues {
  return {
    storeName: s.storeName,
    storePhone: s.storePhone,
    storeEmail: s.storeEmail,
    storeAddress: s.storeAddress,
    storeWebsite: s.storeWebsite,
    footerMessage: s.footerMessage,
    acceptanceTermsText: s.acceptanceTermsText,
    quoteExpirationEnabled: s.quoteExpirationEnabled,
    quoteExpirationDays: String(s.quoteExpirationDays),
    smtpHost: s.smtpHost,
    smtpPort: String(s.smtpPort),
    smtpUser: s.smtpUser,
    // Write-only: the stored password never comes back, so blank means "keep it".
    smtpPassword: "",
    removePassword: false,
    smtpFromEmail: s.smtpFromEmail,
    smtpFromName: s.smtpFromName,
    smtpAllowInsecure: s.smtpAllowInsecure,
    emailSubject: s.emailSubject,
    emailBody: s.emailBody,
    openingDays: s.openingDays,
    closedDates: s.closedDates,
    openingTime: s.openingTime,
    closingTime: s.closingTime,
    timeZone: s.timeZone,
    readyEmailSubject: s.readyEmailSubject,
    readyEmailBody: s.readyEmailBody,
    readyUndoMinutes: String(s.readyUndoMinutes),
    readyWaitingDays: String(s.readyWaitingDays),
  };
}

/**
 * The server's own schema, fed what the PUT will carry: the days are left out
 * while expiry is off (the field is hidden, so it must not block a save), and
 * "Remove stored password" becomes the null that removes it.
 */
const formSchema = z.preprocess((raw) => {
  const { removePassword, ...v } = raw as FormValues;
  const out: Record<string, unknown> = {
    ...v,
    smtpPassword: removePassword ? null : v.smtpPassword,
  };
  if (!v.quoteExpirationEnabled) delete out.quoteExpirationDays;
  return out;
}, settingsSchema);

const STATUS_KEY = ["admin", "email-status"];

const PASSWORD_DROPPED =
  "The stored SMTP password was removed because the mail server settings changed: enter it again.";

function statusText(s: EmailStatus): { text: string; tone: string } {
  if (!s.configured || s.status === "not_configured") {
    return { text: "Not configured", tone: "secondary" };
  }
  if (s.status.startsWith("error: ")) return { text: "Error", tone: "destructive" };
  if (s.working) return { text: "Working", tone: "success" };
  return { text: "Not verified yet", tone: "warning" };
}

export default function SettingsForm(props: SettingsFormProps) {
  const uid = useId();
  const id = (name: string) => `${uid}-${name}`;
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState(props.initialSettings);
  const baseline = useMemo(() => toValues(saved), [saved]);
  const form = useValidatedForm(formSchema, baseline);
  const v = form.values;
  const e = form.errors;
  const dirty = useMemo(() => JSON.stringify(v) !== JSON.stringify(baseline), [v, baseline]);

  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: () => apiRequest<EmailStatus>("GET", "/api/admin/oauth2-status"),
    initialData: props.initialEmailStatus,
  });

  // Leaving with unsaved edits asks first; the browser shows its own wording.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    addEventListener("beforeunload", onBeforeUnload);
    return () => removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  const save = useMutation({
    mutationFn: (input: SettingsInput) =>
      apiRequest<AdminSettings>("PUT", "/api/admin/settings", input),
    onSuccess: (next, sent) => {
      // The server drops the stored password when the mail server changes and
      // none was typed with it: say so, or the next send would fail unexplained.
      const dropped = saved.smtpPasswordSet && !next.smtpPasswordSet &&
        sent.smtpPassword === undefined;
      setSaved(next);
      form.reset(toValues(next));
      // New server details are unproven until the next test or delivery.
      queryClient.invalidateQueries({ queryKey: STATUS_KEY });
      toast({
        title: "Settings Updated",
        description: "Application settings have been updated successfully." +
          (dropped ? ` ${PASSWORD_DROPPED}` : ""),
        variant: "success",
      });
    },
    onError: (error) => {
      if (isUnauthorized(error)) return;
      if (error instanceof ApiError && error.status === 400 && error.fields) {
        const { smtpPassEnc, ...fields } = error.fields;
        form.setErrors(smtpPassEnc ? { ...fields, smtpPassword: smtpPassEnc } : fields);
      }
      toast({
        title: "Error",
        description: "Failed to update settings. Please try again.",
        variant: "destructive",
      });
    },
  });

  const [testAddress, setTestAddress] = useState("");
  const [testError, setTestError] = useState<string | undefined>();
  const sendTest = useMutation({
    mutationFn: (email: string) => apiRequest("POST", "/api/admin/test-email", { email }),
    onSuccess: () =>
      toast({
        title: "Test Email Sent",
        description: "Test email sent successfully! Check your inbox.",
        variant: "success",
      }),
    onError: (error) => {
      if (isUnauthorized(error)) return;
      toast({
        title: "Test Email Failed",
        description: "Failed to send test email. Please check your configuration.",
        variant: "destructive",
      });
    },
    // Success or failure, the server has recorded the outcome.
    onSettled: () => queryClient.invalidateQueries({ queryKey: STATUS_KEY }),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const data = form.validate(event.currentTarget);
    if (!data) return;
    // Only what changed goes: the server marks e-mail as unverified whenever
    // mail fields arrive, so resending unchanged ones would undo a good test.
    const changed = Object.fromEntries(
      Object.entries(data).filter(([key]) =>
        key === "smtpPassword"
          ? v.removePassword || v.smtpPassword !== ""
          : v[key as keyof FormValues] !== baseline[key as keyof FormValues]
      ),
    ) as SettingsInput;
    save.mutate(changed);
  }

  function onSendTest(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sendTest.isPending || !testAddress.trim()) return;
    const parsed = testEmailSchema.safeParse({ email: testAddress });
    if (!parsed.success) {
      setTestError(parsed.error.issues[0]?.message);
      return;
    }
    setTestError(undefined);
    sendTest.mutate(parsed.data.email);
  }

  const text = (name: keyof FormValues) => ({
    id: id(name),
    name,
    value: v[name] as string,
    onChange: (value: string) => form.setField(name, value),
    error: e[name],
  });
  const shown = statusText(status.data);
  const testFormId = id("test-email-form");

  return (
    <div className="settings">
      <div className="page-head">
        <div>
          <h1>Admin Settings</h1>
          <p className="muted">Store details, quotes and e-mail for the whole store.</p>
        </div>
      </div>

      <form className="settings-form" noValidate onSubmit={onSubmit}>
        <SettingsCard id={id("store")} title="Store Information">
          <div className="form-grid">
            <SettingsField
              {...text("storeName")}
              label="Store Name"
              input={{ autoComplete: "organization", placeholder: STORE_FALLBACKS.storeName }}
            />
            <SettingsField
              {...text("storePhone")}
              label="Store Phone"
              input={{ type: "tel", inputMode: "tel", placeholder: STORE_FALLBACKS.storePhone }}
            />
            <SettingsField
              {...text("storeEmail")}
              label="Store Email"
              input={{
                type: "email",
                inputMode: "email",
                spellCheck: false,
                placeholder: STORE_FALLBACKS.storeEmail,
              }}
            />
            <SettingsField
              {...text("storeWebsite")}
              label="Website"
              input={{ type: "url", inputMode: "url", spellCheck: false }}
            />
            <SettingsField
              {...text("storeAddress")}
              label="Store Address"
              hint={`Left blank, client copies and e-mails show ${STORE_FALLBACKS.storeAddress}.`}
              wide
              multiline
              rows={2}
            />
          </div>
        </SettingsCard>

        <SettingsCard
          id={id("branding")}
          title="Branding"
          description="The logo on quotes and the staff bar, and the icon in browser tabs."
        >
          <div className="settings-branding">
            <ImageUpload which="logo" currentUrl={props.currentLogoUrl} previewSize={96} />
            <ImageUpload which="favicon" currentUrl={props.currentFaviconUrl} previewSize={32} />
          </div>
        </SettingsCard>

        <SettingsCard id={id("quote")} title="Quote Settings">
          <SettingsField
            {...text("footerMessage")}
            label="Quote Footer Message"
            multiline
            rows={3}
            hint="Printed at the bottom of every quote."
          />
          <SettingsField
            {...text("acceptanceTermsText")}
            label="Online Acceptance Terms"
            multiline
            rows={3}
            hint={"What a client ticks before accepting a quote online from the e-mail's link. " +
              `Left empty, clients see: "${ACCEPTANCE_TERMS_FALLBACK}"`}
          />
        </SettingsCard>

        <SettingsCard
          id={id("hours")}
          title="Store Hours and Pickup"
          description="Promised dates count the days the store opens, closed dates left out; the ready-for-pickup e-mail goes out during opening hours."
        >
          <fieldset
            className="settings-days"
            aria-describedby={e.openingDays ? id("days-error") : undefined}
          >
            <legend>Opening days</legend>
            {WEEKDAYS.map((day, n) => {
              const days = v.openingDays.split(",").filter(Boolean).map(Number);
              return (
                <Checkbox
                  key={day}
                  label={day}
                  name="openingDays"
                  checked={days.includes(n)}
                  onChange={(ev) =>
                    form.setField(
                      "openingDays",
                      (ev.target.checked ? [...days, n] : days.filter((d) => d !== n))
                        .sort().join(","),
                    )}
                />
              );
            })}
            {e.openingDays && <p id={id("days-error")} className="field-error">{e.openingDays}</p>}
          </fieldset>
          <ClosedDatesField
            id={id("closedDates")}
            value={v.closedDates}
            onChange={(dates) => form.setField("closedDates", dates)}
            error={e.closedDates}
            today={props.today}
          />
          <div className="form-grid">
            <SettingsField {...text("openingTime")} label="Opening Time" input={{ type: "time" }} />
            <SettingsField {...text("closingTime")} label="Closing Time" input={{ type: "time" }} />
            <SettingsField
              {...text("timeZone")}
              label="Time Zone"
              hint="An IANA name, like America/Chicago."
              input={{ spellCheck: false }}
            />
            <SettingsField
              {...text("readyUndoMinutes")}
              label="Undo Window (minutes)"
              hint="The ready e-mail waits this long; a step back before then sends nothing."
              input={{ inputMode: "numeric" }}
            />
            <SettingsField
              {...text("readyWaitingDays")}
              label="Ready and Waiting After (days)"
              hint="Ready jobs not picked up after this many days are listed on the dashboard."
              input={{ inputMode: "numeric" }}
            />
            <SettingsField {...text("readyEmailSubject")} label="Ready E-mail Subject" wide />
            <SettingsField
              {...text("readyEmailBody")}
              label="Ready E-mail Body"
              wide
              multiline
              rows={5}
              hint="{firstName}, {jobNumber}, {storeName}, {storeAddress} and {storeHours} are filled in."
            />
          </div>
        </SettingsCard>

        <SettingsCard
          id={id("email")}
          title="Email Configuration"
          description="The mail server quotes are sent through."
        >
          <p className="settings-status" role="status" aria-live="polite">
            <span className="settings-status-label">Status:</span>{" "}
            <span className={`badge badge-${shown.tone}`}>{shown.text}</span>
            {status.data.email && <span className="muted">{status.data.email}</span>}
          </p>
          {shown.tone === "destructive" && (
            <p className="hint settings-status-detail">
              {status.data.status.replace(/^error: /, "")}
            </p>
          )}
          <div className="form-grid">
            <SettingsField
              {...text("smtpHost")}
              label="SMTP Host"
              input={{ spellCheck: false, autoCapitalize: "none", placeholder: "smtp.example.com" }}
            />
            <SettingsField
              {...text("smtpPort")}
              label="SMTP Port"
              input={{ type: "number", inputMode: "numeric", min: 1, max: 65535 }}
              hint="Usually 587."
            />
            <SettingsField
              {...text("smtpUser")}
              label="SMTP Username"
              input={{ autoComplete: "off", spellCheck: false, autoCapitalize: "none" }}
            />
            <div className="field">
              <SettingsField
                {...text("smtpPassword")}
                label="SMTP Password"
                input={{
                  type: "password",
                  autoComplete: "new-password",
                  placeholder: saved.smtpPasswordSet ? "Leave blank to keep it" : "",
                }}
                disabled={v.removePassword}
                hint={saved.smtpPasswordSet
                  ? "A password is stored. Leave blank to keep it. Changing the host, port or " +
                    "username removes it unless you enter it again."
                  : "No password is stored."}
              />
              {saved.smtpPasswordSet && (
                <Checkbox
                  label="Remove stored password"
                  name="removePassword"
                  checked={v.removePassword}
                  onChange={(ev) => form.setField("removePassword", ev.target.checked)}
                />
              )}
            </div>
            <SettingsField
              {...text("smtpFromEmail")}
              label="From Email"
              input={{ type: "email", inputMode: "email", spellCheck: false }}
            />
            <SettingsField {...text("smtpFromName")} label="Sender Name" />
            <div className="field field-wide">
              <Checkbox
                label="Local relay without TLS"
                name="smtpAllowInsecure"
                checked={v.smtpAllowInsecure}
                aria-describedby={id("insecure-warning")}
                onChange={(ev) => form.setField("smtpAllowInsecure", ev.target.checked)}
              />
              <p
                id={id("insecure-warning")}
                className={`hint${v.smtpAllowInsecure ? " settings-warning" : ""}`}
              >
                {v.smtpAllowInsecure
                  ? "Warning: mail, and the SMTP password, will cross the network unencrypted. " +
                    "Only for a mail relay on this store's own network."
                  : "Off: mail is sent only over TLS (port 465, or STARTTLS on other ports)."}
              </p>
            </div>
            <SettingsField
              {...text("emailSubject")}
              label="Email Subject"
              wide
              hint={
                <>
                  You can use <code>{"{store}"}</code>, <code>{"{client}"}</code>,{" "}
                  <code>{"{quoteNumber}"}</code> and <code>{"{optician}"}</code>.
                </>
              }
            />
            <SettingsField {...text("emailBody")} label="Email Body" wide multiline rows={4} />
          </div>
          <div className="settings-test">
            <div className="field">
              <label htmlFor={id("test-email")}>Send a test email to</label>
              <div className="input-with-action">
                <input
                  id={id("test-email")}
                  form={testFormId}
                  type="email"
                  inputMode="email"
                  spellCheck={false}
                  autoCapitalize="none"
                  placeholder="you@example.com"
                  value={testAddress}
                  onChange={(ev) => setTestAddress(ev.target.value)}
                  aria-invalid={testError ? true : undefined}
                  aria-describedby={`${id("test-email")}-hint${
                    testError ? ` ${id("test-email")}-error` : ""
                  }`}
                />
                <button
                  type="submit"
                  form={testFormId}
                  className="btn btn-outline"
                  disabled={!testAddress.trim() || sendTest.isPending}
                >
                  {sendTest.isPending ? "Sending..." : "Send Test Email"}
                </button>
              </div>
              <p id={`${id("test-email")}-hint`} className="hint">
                Uses the saved settings: save your changes first.
              </p>
              {testError && (
                <p id={`${id("test-email")}-error`} className="field-error">{testError}</p>
              )}
            </div>
          </div>
        </SettingsCard>

        <SettingsCard id={id("expiry")} title="Quote Expiration">
          <label className="settings-switch">
            <input
              type="checkbox"
              role="switch"
              name="quoteExpirationEnabled"
              checked={v.quoteExpirationEnabled}
              onChange={(ev) => form.setField("quoteExpirationEnabled", ev.target.checked)}
            />
            <span>Quotes expire</span>
          </label>
          {v.quoteExpirationEnabled && (
            <div className="settings-days">
              <SettingsField
                {...text("quoteExpirationDays")}
                label="Days until a quote expires"
                input={{ type: "number", inputMode: "numeric", min: 1, max: 365, step: 1 }}
                hint="From 1 to 365. Left blank, 30 is used."
              />
            </div>
          )}
        </SettingsCard>

        <div className="settings-actions">
          {dirty && <span className="muted">You have unsaved changes.</span>}
          <button type="submit" className="btn btn-primary btn-lg" disabled={save.isPending}>
            {save.isPending ? "Saving..." : "Save Settings"}
          </button>
        </div>
      </form>
      {/* The test e-mail row sits inside the settings form on screen but submits this one. */}
      <form id={testFormId} noValidate onSubmit={onSendTest} hidden />
    </div>
  );
}
