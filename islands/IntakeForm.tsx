import { type FormEvent, useEffect, useRef, useState } from "react";
import type { ApiError } from "../components/api_client.ts";
import { toast } from "../components/toast.tsx";
import { ClientFields } from "../components/ClientFields.tsx";
import { ConsentOption } from "../components/ConsentOption.tsx";
import { useCheckedForm } from "../components/use_checked_form.ts";
// Zod-free on purpose: the intake runs on the store's tablets and its page
// stays light. The server checks the full schema (createClientSchema) and its
// 400 names the field, which is then shown under that field.
import {
  emptyNewClientForm,
  type NewClientFormValues,
  quickClientErrors,
} from "../src/schemas/client_form.ts";
import type { ConsentTexts, CreatedClient, HeardHowOption } from "../src/clients/views.ts";
import { type KioskStaff, StaffReturn } from "../components/kiosk/StaffReturn.tsx";
import { forget, forgetBoth, keep, restore } from "../components/offline/device_store.ts";
import {
  type ConsentCall,
  type QueuedIntake,
  queueIntake,
  sendIntake,
} from "../components/offline/queued_intake.ts";
import { useResend } from "../components/offline/use_resend.ts";
import { SAVED_ON_DEVICE } from "../components/offline/messages.ts";

export interface IntakeFormProps {
  consentTexts: ConsentTexts;
  heardHowOptions: HeardHowOption[];
  /**
   * Set when staff handed the tablet to the client (a kiosk session): the
   * form ends on a thank-you and the staff return form instead of opening
   * the staff quote builder. `staff` is null on the offline shell the service
   * worker keeps (`/intake?shell=1`): no staff name is kept on the device.
   */
  kiosk?: { staff: KioskStaff | null; completed: boolean } | null;
  /** The store's own intake page (/intake/{code}): the client registers in that store. */
  storeCode?: string;
}

export const INTAKE_THANKS =
  "Thank you for completing the intake form! Please hand the tablet back to your optician.";

export const OTHER = "other";

/** Long enough to read the success toast before the quote page replaces this one. */
export const INTAKE_REDIRECT_MS = 1000;

/**
 * One record per channel the client opted into, and only when there is a
 * number or address to hold them to and a statement they were shown. The
 * targets are trimmed, as the server stores them.
 */
export function consentCalls(data: NewClientFormValues, texts: ConsentTexts): ConsentCall[] {
  const calls: ConsentCall[] = [];
  const phone = data.mobilePhone.trim() || data.homePhone.trim();
  const email = data.email.trim();
  if (data.smsConsent && phone && texts.smsConsentText.trim()) {
    calls.push({ type: "SMS", statement: texts.smsConsentText, target: phone });
  }
  if (data.emailConsent && email && texts.emailConsentText.trim()) {
    calls.push({ type: "EMAIL", statement: texts.emailConsentText, target: email });
  }
  return calls;
}

function checkIntake(values: NewClientFormValues) {
  const errors = quickClientErrors(values);
  return Object.keys(errors).length ? { errors } : { data: values };
}

/** The two consents the intake asks for, each with the contact detail it needs. */
const CONSENTS = [
  {
    field: "smsConsent",
    title: "Text messages (SMS)",
    statement: "smsConsentText",
    missing: "Add a mobile or home phone number above so we can text you.",
  },
  {
    field: "emailConsent",
    title: "Email",
    statement: "emailConsentText",
    missing: "Add an email address above so we can email you.",
  },
] as const;

export default function IntakeForm(
  // The server rendered both lists into the page; nothing here changes them.
  { consentTexts: texts, heardHowOptions: options, kiosk = null, storeCode }: IntakeFormProps,
) {
  const { values, errors, setField, validate, setErrors, reset } = useCheckedForm(
    checkIntake,
    emptyNewClientForm,
  );
  // A submitted intake until the server has all of it (kept on the device too).
  const [queued, setQueued] = useState<QueuedIntake | null>(null);
  // Its first try got no answer: the form says it is kept here for now.
  const [waiting, setWaiting] = useState(false);
  const busy = queued !== null;
  // The kept draft is read (or there is none) before anything typed is kept,
  // so the empty first render never overwrites it.
  const [restored, setRestored] = useState(false);
  // KioskReturn looks for a kiosk's intake waiting to be sent under the same id.
  const deviceId = kiosk ? "intake:kiosk" : "intake";
  // Kiosk only: the form is done (submitted here or before), or refused.
  const [done, setDone] = useState(kiosk?.completed ?? false);
  const [refused, setRefused] = useState<string | null>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  // Until the island is hydrated a tap on Submit would be a plain form
  // submission carrying personal details, so the button waits for React.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // On load: what was typed or submitted here within the hour comes back, and
  // a submit that was waiting is sent again at once (useResend).
  useEffect(() => {
    let gone = false;
    (async () => {
      const { draft, outbox } = await restore<NewClientFormValues, QueuedIntake>(deviceId) ?? {};
      if (gone) return;
      if (kiosk?.completed) {
        // The server has this kiosk's work: nothing of it stays on the device.
        await forgetBoth(deviceId);
      } else {
        // Read within moments of the page opening, before anything is typed.
        if (draft) reset({ ...emptyNewClientForm, ...draft });
        if (outbox) setQueued(outbox);
      }
      if (!gone) setRestored(true);
    })();
    return () => {
      gone = true;
    };
  }, []);

  useEffect(() => {
    if (restored && !done) void keep("draft", deviceId, values);
  }, [values, restored]);

  // The outbox write of the last submit: "saved on this device" waits for its commit.
  const keeping = useRef<Promise<unknown>>(Promise.resolve());
  useResend(queued !== null, async () => {
    if (!queued) return true;
    const result = await sendIntake(queued, (job) => keep("outbox", deviceId, job));
    if (!result.sent && result.again) {
      await keeping.current;
      setWaiting(true);
      return false;
    }
    await forget("outbox", deviceId);
    setQueued(null);
    setWaiting(false);
    if (result.sent) {
      await forget("draft", deviceId);
      succeeded(result.value);
    } else {
      refusedWith(result.error);
    }
    return true;
  });
  const formRef = useRef<HTMLFormElement>(null);
  const otherRef = useRef<HTMLInputElement>(null);
  const focusOther = useRef(false);
  const [focusField, setFocusField] = useState<string | null>(null);

  // A field the server rejected takes the focus once the form is enabled
  // again (a disabled field cannot).
  useEffect(() => {
    if (!focusField || busy) return;
    setFocusField(null);
    formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(focusField)}"]`)?.focus();
  }, [focusField, busy]);

  // Choosing Other opens the keyboard on the new field; a hydrated form that
  // already says Other (back navigation) does not.
  useEffect(() => {
    if (values.heardHowId === OTHER && focusOther.current) {
      focusOther.current = false;
      otherRef.current?.focus();
    }
  }, [values.heardHowId]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    const data = validate(formRef.current);
    if (!data) return;
    // The server parses the same schema, so it gets what was typed, not the
    // parsed result. Text typed for Other is kept while they try another
    // choice, but only sent with Other.
    const payload = {
      ...values,
      // The spec's wire format: an empty date of birth is null; Other stays "other".
      dob: values.dob.trim() || null,
      heardHowText: values.heardHowId === OTHER ? values.heardHowText : "",
    };
    const job = queueIntake(payload, consentCalls(data, texts), storeCode);
    // Kept as it is sent: a tab that dies mid-request sends it again on load.
    setQueued(job);
    keeping.current = keep("outbox", deviceId, job);
    await keeping.current;
  }

  function refusedWith(error: ApiError) {
    if (kiosk && (error.status === 401 || error.status === 403)) {
      setRefused(error.detail.replace(/^(Forbidden|Unauthorized): /, ""));
      return;
    }
    if (error.fields) {
      setErrors(error.fields);
      setFocusField(Object.keys(error.fields)[0] ?? null);
    }
    toast({
      title: "Error",
      description: "Failed to create client. Please try again.",
      variant: "destructive",
    });
  }

  function succeeded(created: CreatedClient) {
    toast({
      title: "Success",
      description: "Client intake completed successfully!",
      variant: "success",
    });
    // The client holds a kiosk: thank them, never show the staff builder.
    if (kiosk) setDone(true);
    else setTimeout(() => location.assign(`/quote/${created.quote.id}`), INTAKE_REDIRECT_MS);
  }

  useEffect(() => {
    if (!done && !refused) return;
    globalThis.scrollTo(0, 0);
    thanksRef.current?.focus();
  }, [done, refused]);

  if (kiosk && (done || refused)) {
    return (
      <section className="card intake-thanks" aria-labelledby="intake-thanks-title">
        <h2 id="intake-thanks-title" ref={thanksRef} tabIndex={-1}>
          {done ? "Thank You!" : "This form cannot be sent again"}
        </h2>
        <p className={done ? "intake-thanks-text" : "notice notice-warning"}>
          {done ? INTAKE_THANKS : refused}
        </p>
        <StaffReturn staff={kiosk.staff} open />
      </section>
    );
  }

  const hasPhone = Boolean(values.mobilePhone.trim() || values.homePhone.trim());
  const hasEmail = Boolean(values.email.trim());
  // A consent is only usable with the contact detail it needs.
  const reachable = { smsConsent: hasPhone, emailConsent: hasEmail };

  const form = (
    <form ref={formRef} className="intake-form" method="post" onSubmit={onSubmit} noValidate>
      <ClientFields
        variant="cards"
        idPrefix="intake"
        values={values}
        errors={errors}
        onChange={setField}
        disabled={busy}
      />

      <section className="card form-card" aria-labelledby="intake-communication">
        <h2 id="intake-communication">Communication Preferences</h2>
        <p className="hint">Choose how we may contact you. Both are optional.</p>
        <div className="consent-list">
          {CONSENTS.map((c) => (
            <ConsentOption
              key={c.field}
              id={`intake-${c.field}`}
              name={c.field}
              title={c.title}
              statement={texts[c.statement]}
              checked={values[c.field]}
              onChange={(checked) => setField(c.field, checked)}
              disabled={busy}
              missing={values[c.field] && !reachable[c.field] ? c.missing : undefined}
            />
          ))}
        </div>
      </section>

      <section className="card form-card" aria-labelledby="intake-heard">
        <h2 id="intake-heard">How did you hear about us?</h2>
        <div
          className="choice-grid"
          role="radiogroup"
          aria-labelledby="intake-heard"
          aria-describedby={errors.heardHowId ? "intake-heardHowId-error" : undefined}
        >
          {[...options, { id: OTHER, label: "Other" }].map((option) => (
            <label key={option.id} className="choice">
              <input
                type="radio"
                name="heardHowId"
                value={option.id}
                checked={values.heardHowId === option.id}
                onChange={() => {
                  focusOther.current = option.id === OTHER;
                  setField("heardHowId", option.id);
                }}
                disabled={busy}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
        {errors.heardHowId && (
          <p id="intake-heardHowId-error" className="field-error">{errors.heardHowId}</p>
        )}
        {values.heardHowId === OTHER && (
          <div className="field">
            <label htmlFor="intake-heardHowText">Please tell us how</label>
            <input
              ref={otherRef}
              id="intake-heardHowText"
              name="heardHowText"
              autoComplete="off"
              autoCapitalize="sentences"
              maxLength={200}
              value={values.heardHowText}
              onChange={(e) => setField("heardHowText", e.target.value)}
              disabled={busy}
              aria-invalid={errors.heardHowText ? true : undefined}
              aria-describedby={errors.heardHowText ? "intake-heardHowText-error" : undefined}
            />
            {errors.heardHowText && (
              <p id="intake-heardHowText-error" className="field-error">{errors.heardHowText}</p>
            )}
          </div>
        )}
      </section>

      <div className="intake-submit">
        {waiting && (
          <p
            className="notice notice-info intake-saved"
            role="status"
            data-testid="saved-on-device"
          >
            {SAVED_ON_DEVICE}
          </p>
        )}
        <button
          type="submit"
          className="btn btn-primary btn-lg btn-block"
          disabled={busy || !hydrated}
        >
          {busy ? "Submitting..." : "Submit Intake Form"}
        </button>
        <p className="intake-closing">
          Thank you for completing the intake form! Please hand the tablet back to your optician.
        </p>
      </div>
    </form>
  );
  // The staff return sits below the form, never inside it: forms cannot nest.
  // Not while the intake waits to be sent: it can only be sent while the
  // kiosk session lasts.
  return kiosk
    ? (
      <>
        {form}
        {!busy && <StaffReturn staff={kiosk.staff} open={false} />}
      </>
    )
    : form;
}
