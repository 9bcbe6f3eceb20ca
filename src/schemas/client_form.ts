// What a client form holds in the browser, and the few checks the intake
// makes before sending, without zod: the intake ships to tablets and stays
// light. The full rules are the schemas in client.ts, which the server runs on
// every save and whose 400 answer names the field (shown under it).

export const FIRST_NAME_REQUIRED = "First name is required";
export const LAST_NAME_REQUIRED = "Last name is required";
export const EMAIL_INVALID = "Please enter a valid email address";
/**
 * An e-mail address: zod's default pattern for z.email(), written out here so
 * the intake can test it without loading zod; the server's schema passes this
 * same pattern to z.email(), so both always agree.
 */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/**
 * The client form's fields, as the form holds them while being edited: every
 * field a string. client.ts checks at compile time that its schema has
 * exactly these fields.
 */
export const CLIENT_FORM_FIELDS = [
  "firstName",
  "middleName",
  "lastName",
  "dob",
  "email",
  "homePhone",
  "mobilePhone",
  "address1",
  "address2",
  "city",
  "state",
  "zip",
] as const;
export type ClientFormValues = Record<(typeof CLIENT_FORM_FIELDS)[number], string>;
export const emptyClientForm: ClientFormValues = {
  firstName: "",
  middleName: "",
  lastName: "",
  dob: "",
  email: "",
  homePhone: "",
  mobilePhone: "",
  address1: "",
  address2: "",
  city: "",
  state: "",
  zip: "",
};

/** A new client's form (intake, Add New Client): the fields, how they heard of us, consent. */
export type NewClientFormValues = ClientFormValues & {
  heardHowId: string;
  heardHowText: string;
  smsConsent: boolean;
  emailConsent: boolean;
};
export const emptyNewClientForm: NewClientFormValues = {
  ...emptyClientForm,
  heardHowId: "",
  heardHowText: "",
  smsConsent: false,
  emailConsent: false,
};

/**
 * The checks a person filling the intake needs at once: both names, and an
 * e-mail that is empty or an address (EMAIL_PATTERN, as on the server).
 * Everything else waits for the server's answer.
 */
export function quickClientErrors(values: ClientFormValues): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.firstName.trim()) errors.firstName = FIRST_NAME_REQUIRED;
  if (!values.lastName.trim()) errors.lastName = LAST_NAME_REQUIRED;
  const email = values.email.trim();
  if (email && !EMAIL_PATTERN.test(email)) errors.email = EMAIL_INVALID;
  return errors;
}
