// Demo data for `deno task seed`: a small, realistic store that makes every
// screen of Lensdesk show something. Everything happens in one transaction
// and nothing is written when the database already holds clients.
import { sql } from "kysely";
import type { DB } from "../db/database.ts";
import { hashPassword } from "../auth/password.ts";
import type { ItemKind, QuoteStatus, Role } from "../../db/schema.ts";
import {
  CATALOG_TABLES,
  type CatalogTableName,
  DEFAULT_CATALOG,
  type PackageSeedItem,
} from "../catalog/default_catalog.ts";
import { centsToDecimal, parseCents } from "../money/amounts.ts";
import { addUserStores, findFirstStore } from "../stores/stores.ts";

// ---------------------------------------------------------------------------
// Store, staff, heard-how

export const DEMO_PASSWORD = "demo-password";

export const DEMO_STAFF: readonly {
  username: string;
  role: Role;
  firstName: string;
  lastName: string;
  email: string;
  /** Where they work: the chain's first store, the demo's second (Wicker Park), or both. */
  stores: "first" | "second" | "both";
}[] = [
  {
    username: "admin.demo",
    role: "ADMIN",
    firstName: "Alex",
    lastName: "Morgan",
    email: "alex.morgan@northside-eyewear.example",
    stores: "both",
  },
  {
    username: "maria.optician",
    role: "AUTHORIZED_USER",
    firstName: "Maria",
    lastName: "Alvarez",
    email: "maria.alvarez@northside-eyewear.example",
    stores: "first",
  },
  {
    username: "james.optician",
    role: "AUTHORIZED_USER",
    firstName: "James",
    lastName: "Okafor",
    email: "james.okafor@northside-eyewear.example",
    stores: "second",
  },
];

const FOOTER_MESSAGE = "This quote is valid for 30 days. Prices subject to change without notice.";
const SMS_CONSENT_TEXT =
  "I agree to receive text messages from Northside Eyewear about my orders, appointments and " +
  "quotes at the mobile number provided. Message and data rates may apply. Reply STOP to opt " +
  "out at any time.";
const EMAIL_CONSENT_TEXT =
  "I agree to receive e-mails from Northside Eyewear about my orders, quotes and occasional " +
  "store news at the e-mail address provided. I can unsubscribe at any time.";

const STORE_SETTINGS = {
  storeName: "Northside Eyewear",
  storePhone: "(312) 555-0148",
  storeEmail: "hello@northside-eyewear.example",
  storeAddress: "2150 N Lincoln Ave, Suite 4, Chicago, IL 60614",
  storeWebsite: "https://www.northside-eyewear.example",
  footerMessage: FOOTER_MESSAGE,
  smsConsentText: SMS_CONSENT_TEXT,
  emailConsentText: EMAIL_CONSENT_TEXT,
};

/**
 * The demo chain's second store: its own name, address, phone and hours; the
 * rest (logo, wording, time zone) is the chain's. Its code is taken only when
 * no store has it yet.
 */
const SECOND_STORE = {
  code: "WP",
  name: "Northside Eyewear Wicker Park",
  address: "1520 N Milwaukee Ave, Chicago, IL 60622",
  phone: "(312) 555-0192",
  email: "wickerpark@northside-eyewear.example",
  openingDays: "2,3,4,5,6",
  openingTime: "10:00",
  closingTime: "19:00",
};

const HEARD_HOW = [
  "Google search",
  "Friend or family",
  "Instagram",
  "Walk-in",
  "Doctor referral",
  "Insurance provider",
] as const;
type HeardHow = (typeof HEARD_HOW)[number];

// ---------------------------------------------------------------------------
// Clients

interface ClientSeed {
  key: string;
  firstName: string;
  middleName?: string;
  lastName: string;
  dob?: string;
  email?: string;
  mobilePhone?: string;
  homePhone?: string;
  address1?: string;
  address2?: string;
  city?: string;
  state?: string;
  zip?: string;
  heardHow?: HeardHow;
  heardHowText?: string;
  sms?: boolean;
  emailOptIn?: boolean;
  /** Days before now; 0 means earlier today. */
  createdDaysAgo: number;
  measurements: {
    pdBinocular: string;
    pdNear: string;
    complete: boolean;
    extras?: Record<string, string>;
  };
}

const CLIENTS: readonly ClientSeed[] = [
  {
    key: "olivia",
    firstName: "Olivia",
    lastName: "Bennett",
    dob: "1986-04-12",
    email: "olivia.bennett@example.com",
    mobilePhone: "(312) 555-0101",
    address1: "1843 W Cortland St",
    city: "Chicago",
    state: "IL",
    zip: "60622",
    heardHow: "Google search",
    sms: true,
    emailOptIn: true,
    createdDaysAgo: 0,
    measurements: { pdBinocular: "62.0", pdNear: "59.0", complete: true },
  },
  {
    key: "marcus",
    firstName: "Marcus",
    middleName: "J.",
    lastName: "Whitfield",
    dob: "1959-11-03",
    email: "mwhitfield@example.net",
    mobilePhone: "(773) 555-0117",
    homePhone: "(773) 555-0162",
    address1: "5520 N Sheridan Rd",
    address2: "Apt 12B",
    city: "Chicago",
    state: "IL",
    zip: "60640",
    heardHow: "Doctor referral",
    emailOptIn: true,
    createdDaysAgo: 0,
    measurements: { pdBinocular: "0", pdNear: "0", complete: false },
  },
  {
    key: "priya",
    firstName: "Priya",
    lastName: "Raman",
    dob: "1994-07-28",
    email: "priya.raman@example.org",
    mobilePhone: "(224) 555-0133",
    address1: "901 Davis St",
    city: "Evanston",
    state: "IL",
    zip: "60201",
    heardHow: "Instagram",
    sms: true,
    createdDaysAgo: 0,
    measurements: { pdBinocular: "60.5", pdNear: "57.5", complete: true },
  },
  {
    key: "daniel",
    firstName: "Daniel",
    lastName: "Kowalski",
    dob: "1978-02-19",
    email: "dan.kowalski@example.com",
    mobilePhone: "(708) 555-0124",
    address1: "412 S Oak Park Ave",
    city: "Oak Park",
    state: "IL",
    zip: "60302",
    heardHow: "Friend or family",
    createdDaysAgo: 3,
    measurements: { pdBinocular: "64.0", pdNear: "61.0", complete: true },
  },
  {
    key: "grace",
    firstName: "Grace",
    middleName: "Eleanor",
    lastName: "Thompson",
    dob: "1951-09-07",
    email: "grace.thompson@example.net",
    homePhone: "(847) 555-0189",
    address1: "77 Green Bay Rd",
    city: "Winnetka",
    state: "IL",
    zip: "60093",
    heardHow: "Insurance provider",
    emailOptIn: true,
    createdDaysAgo: 6,
    measurements: {
      pdBinocular: "63.0",
      pdNear: "60.0",
      complete: true,
      extras: { "Vertex distance": "12 mm", "Pantoscopic tilt": "8°" },
    },
  },
  {
    key: "ethan",
    firstName: "Ethan",
    lastName: "Nguyen",
    dob: "2012-05-30",
    email: "linh.nguyen.family@example.com",
    mobilePhone: "(312) 555-0156",
    address1: "2236 S Wentworth Ave",
    city: "Chicago",
    state: "IL",
    zip: "60616",
    heardHow: "Doctor referral",
    sms: true,
    emailOptIn: true,
    createdDaysAgo: 10,
    measurements: { pdBinocular: "56.0", pdNear: "53.0", complete: true },
  },
  {
    key: "sofia",
    firstName: "Sofía",
    lastName: "Delgado",
    dob: "1990-12-15",
    email: "sofia.delgado@example.org",
    mobilePhone: "(872) 555-0172",
    address1: "3309 W Diversey Ave",
    city: "Chicago",
    state: "IL",
    zip: "60647",
    heardHow: "Walk-in",
    createdDaysAgo: 62,
    measurements: { pdBinocular: "61.5", pdNear: "58.5", complete: true },
  },
  {
    key: "robert",
    firstName: "Robert",
    lastName: "Hayes",
    dob: "1967-03-22",
    email: "rhayes@example.com",
    mobilePhone: "(414) 555-0110",
    address1: "1120 E Brady St",
    city: "Milwaukee",
    state: "WI",
    zip: "53202",
    heardHow: "Google search",
    emailOptIn: true,
    createdDaysAgo: 46,
    measurements: { pdBinocular: "66.0", pdNear: "63.0", complete: true },
  },
  {
    key: "aisha",
    firstName: "Aisha",
    lastName: "Mohammed",
    dob: "1983-08-09",
    email: "aisha.mohammed@example.net",
    mobilePhone: "(219) 555-0145",
    address1: "610 Ridge Rd",
    city: "Munster",
    state: "IN",
    zip: "46321",
    heardHow: "Friend or family",
    sms: true,
    createdDaysAgo: 39,
    measurements: { pdBinocular: "59.0", pdNear: "56.0", complete: true },
  },
  {
    key: "kevin",
    firstName: "Kevin",
    lastName: "O'Brien",
    dob: "1972-01-26",
    email: "kevin.obrien@example.com",
    mobilePhone: "(630) 555-0138",
    address1: "28 W Jefferson Ave",
    city: "Naperville",
    state: "IL",
    zip: "60540",
    heardHow: "Walk-in",
    createdDaysAgo: 2,
    // Distance PD taken, near PD still to measure.
    measurements: { pdBinocular: "65.5", pdNear: "0", complete: false },
  },
  {
    key: "hannah",
    firstName: "Hannah",
    lastName: "Lindqvist",
    dob: "2001-06-04",
    email: "hannah.lindqvist@example.org",
    mobilePhone: "(312) 555-0193",
    address1: "1550 N State Pkwy",
    address2: "Unit 7",
    city: "Chicago",
    state: "IL",
    zip: "60610",
    heardHow: "Instagram",
    sms: true,
    emailOptIn: true,
    createdDaysAgo: 1,
    measurements: { pdBinocular: "58.5", pdNear: "55.5", complete: true },
  },
  {
    key: "walter",
    firstName: "Walter",
    lastName: "Brooks",
    dob: "1948-10-31",
    homePhone: "(773) 555-0127",
    address1: "9431 S Longwood Dr",
    city: "Chicago",
    state: "IL",
    zip: "60643",
    heardHowText: "Newspaper ad in the Tribune",
    createdDaysAgo: 18,
    measurements: { pdBinocular: "64.5", pdNear: "0", complete: false },
  },
];

// ---------------------------------------------------------------------------
// Quotes

interface FrameSeed {
  brand: string;
  sku: string;
  price: string;
}

const FRAMES = {
  clubmaster: { brand: "Ray-Ban RB5154 Clubmaster", sku: "RB5154-2000-51", price: "189.00" },
  rb7047: { brand: "Ray-Ban RB7047", sku: "RB7047-5196-54", price: "161.00" },
  airdrop: { brand: "Oakley OX8046 Airdrop", sku: "OX8046-0155", price: "212.00" },
  holbrook: { brand: "Oakley OO9102 Holbrook", sku: "OO9102-E855", price: "183.00" },
  tomford: { brand: "Tom Ford FT5401", sku: "FT5401-052-54", price: "355.00" },
  persol: { brand: "Persol PO3007V", sku: "PO3007V-24-52", price: "268.00" },
  silhouette: { brand: "Silhouette 5500 Momentum", sku: "5500-BD-7530", price: "395.00" },
  coach: { brand: "Coach HC6065", sku: "HC6065-5002-53", price: "168.00" },
  flexon: { brand: "Flexon E1011", sku: "E1011-033-52", price: "149.00" },
  nikeKids: { brand: "Nike 5036 Kids", sku: "NK5036-001-47", price: "119.00" },
  costa: { brand: "Costa Del Mar Fantail", sku: "FA-11-OGP", price: "219.00" },
  kateSpade: { brand: "Kate Spade Bryleigh", sku: "BRYLEIGH-807-50", price: "158.00" },
} as const satisfies Record<string, FrameSeed>;

interface OtherSeed {
  name: string;
  price: string;
  qty?: number;
  notes?: string;
}

const CASE: OtherSeed = { name: "Microfiber case", price: "12.00" };
const CLEANING_KIT: OtherSeed = { name: "Lens cleaning kit", price: "9.50" };
const SPORT_STRAP: OtherSeed = { name: "Sport strap", price: "14.00" };

interface OptionSeed {
  label: string;
  notes?: string;
  frame: FrameSeed;
  /** A catalog package by name, or a custom build from the catalog. */
  lenses: { package: string } | { lens: string; material: string; ar: string };
  addOns?: string[];
  others?: OtherSeed[];
  shipping?: string;
  adjustment?: { amount: string; reason: string };
  chosen?: boolean;
  segOc?: string;
}

interface QuoteSeed {
  client: string;
  optician: "maria.optician" | "james.optician";
  status: QuoteStatus;
  /** Days before now; 0 means earlier today. */
  createdDaysAgo: number;
  internalNotes?: string;
  closed?: { reason: string; daysAgo: number };
  options: OptionSeed[];
}

const QUOTES: readonly QuoteSeed[] = [
  // --- created today
  {
    client: "olivia",
    optician: "maria.optician",
    status: "ACTIVE",
    createdDaysAgo: 0,
    internalNotes: "First pair with us. Works long hours at a screen; mentioned eye strain.",
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.clubmaster,
        lenses: { package: "Premium Single Vision" },
        others: [CASE],
        segOc: "22/22",
      },
      {
        label: "Computer pair",
        frame: FRAMES.rb7047,
        lenses: { package: "Computer & Office" },
        adjustment: { amount: "-25.00", reason: "Promo" },
      },
    ],
  },
  {
    client: "marcus",
    optician: "james.optician",
    status: "PENDING_MEASUREMENTS",
    createdDaysAgo: 0,
    internalNotes: "Dilated today, come back for PD before ordering.",
    options: [
      {
        label: "",
        frame: FRAMES.flexon,
        lenses: { package: "Premium Progressive" },
        others: [CASE],
      },
    ],
  },
  {
    client: "priya",
    optician: "maria.optician",
    status: "DRAFT",
    createdDaysAgo: 0,
    options: [
      {
        label: "",
        frame: FRAMES.kateSpade,
        lenses: { package: "Essential Single Vision" },
      },
    ],
  },
  // --- recent
  {
    client: "hannah",
    optician: "james.optician",
    status: "ACTIVE",
    createdDaysAgo: 1,
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.persol,
        lenses: { lens: "Single Vision", material: "Polycarbonate", ar: "Blue-light AR" },
        addOns: ["Scratch coat"],
        segOc: "20/20",
      },
      {
        label: "Sun",
        frame: FRAMES.costa,
        lenses: { package: "Essential Single Vision" },
        addOns: ["Polarized", "Mirror coating"],
        others: [CASE],
      },
    ],
  },
  {
    client: "kevin",
    optician: "maria.optician",
    status: "PENDING_MEASUREMENTS",
    createdDaysAgo: 2,
    internalNotes: "Near PD not taken yet; client in a hurry.",
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.airdrop,
        lenses: { lens: "Progressive", material: "Trivex", ar: "Premium AR" },
        others: [CASE],
      },
      {
        label: "Budget option",
        frame: FRAMES.rb7047,
        lenses: { package: "Essential Progressive" },
      },
    ],
  },
  {
    client: "daniel",
    optician: "james.optician",
    status: "EMAILED",
    createdDaysAgo: 3,
    internalNotes: "Wants to check with his vision plan before deciding.",
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.tomford,
        lenses: {
          lens: "Premium Digital Progressive",
          material: "High-Index 1.67",
          ar: "Premium AR",
        },
        addOns: ["Transitions (photochromic)"],
        others: [CASE],
        chosen: true,
        segOc: "24/24",
      },
      {
        label: "Sport",
        frame: FRAMES.holbrook,
        lenses: { package: "Essential Progressive" },
        addOns: ["Polarized"],
        others: [SPORT_STRAP],
        shipping: "15.00",
      },
    ],
  },
  {
    client: "grace",
    optician: "maria.optician",
    status: "ACCEPTED",
    createdDaysAgo: 6,
    internalNotes: "VSP member; frame allowance applied as promo.",
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.silhouette,
        lenses: { lens: "Progressive", material: "High-Index 1.74", ar: "Premium AR" },
        addOns: ["UV protection"],
        others: [CASE, CLEANING_KIT],
        adjustment: { amount: "-100.00", reason: "Insurance frame allowance" },
        chosen: true,
        segOc: "23/23",
      },
      {
        label: "Reading pair",
        frame: FRAMES.coach,
        lenses: { lens: "Single Vision", material: "CR-39 Plastic", ar: "Standard AR" },
        chosen: true,
        segOc: "19/19",
      },
    ],
  },
  {
    client: "ethan",
    optician: "james.optician",
    status: "FINALIZED",
    createdDaysAgo: 10,
    internalNotes: "Parent (Linh Nguyen) approved. Ship to home address.",
    options: [
      {
        label: "School pair",
        frame: FRAMES.nikeKids,
        lenses: { package: "Kids Durable" },
        addOns: ["Scratch coat"],
        others: [SPORT_STRAP],
        shipping: "15.00",
        chosen: true,
        segOc: "18/18",
      },
      {
        label: "Backup pair",
        frame: FRAMES.rb7047,
        lenses: { package: "Kids Durable" },
      },
    ],
  },
  {
    client: "walter",
    optician: "maria.optician",
    status: "PENDING_MEASUREMENTS",
    createdDaysAgo: 18,
    options: [
      {
        label: "",
        frame: FRAMES.flexon,
        lenses: { lens: "Bifocal (Flat-Top 28)", material: "CR-39 Plastic", ar: "Standard AR" },
        others: [CLEANING_KIT],
      },
    ],
  },
  // --- expired, not closed: the follow-up list
  {
    client: "robert",
    optician: "james.optician",
    status: "ACTIVE",
    createdDaysAgo: 45,
    internalNotes: "Said he would come back after payday.",
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.airdrop,
        lenses: { package: "Premium Progressive" },
        segOc: "25/25",
      },
      {
        label: "Sport",
        frame: FRAMES.holbrook,
        lenses: { lens: "Single Vision", material: "Polycarbonate", ar: "Standard AR" },
        addOns: ["Polarized"],
        others: [SPORT_STRAP],
      },
    ],
  },
  {
    client: "aisha",
    optician: "maria.optician",
    status: "ACTIVE",
    createdDaysAgo: 38,
    options: [
      {
        label: "",
        frame: FRAMES.kateSpade,
        lenses: { lens: "Single Vision", material: "High-Index 1.67", ar: "Blue-light AR" },
        addOns: ["Tint (solid or gradient)"],
        others: [CASE],
        adjustment: { amount: "-20.00", reason: "Promo" },
      },
    ],
  },
  {
    client: "sofia",
    optician: "james.optician",
    status: "EMAILED",
    createdDaysAgo: 34,
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.persol,
        lenses: { package: "Premium Single Vision" },
        chosen: true,
      },
    ],
  },
  // --- closed
  {
    client: "sofia",
    optician: "maria.optician",
    status: "CLOSED",
    createdDaysAgo: 60,
    closed: { reason: "Client purchased elsewhere", daysAgo: 52 },
    options: [
      {
        label: "Everyday pair",
        frame: FRAMES.clubmaster,
        lenses: { package: "Essential Single Vision" },
      },
    ],
  },
  {
    client: "walter",
    optician: "james.optician",
    status: "CLOSED",
    createdDaysAgo: 17,
    closed: { reason: "Duplicate of an open quote", daysAgo: 17 },
    options: [
      {
        label: "",
        frame: FRAMES.coach,
        lenses: { package: "Essential Progressive" },
      },
    ],
  },
];

// ---------------------------------------------------------------------------
// Seeding

export type SeedResult =
  | {
    status: "seeded";
    users: { username: string; role: Role; created: boolean }[];
    password: string;
    counts: { clients: number; quotes: number; options: number; items: number };
  }
  | { status: "refused"; message: string };

export async function seedDemoStore(db: DB, options: { now?: Date } = {}): Promise<SeedResult> {
  const now = options.now ?? new Date();
  const clock = makeClock(now);

  // A cheap early exit so a refused run does not hash passwords; the check is
  // repeated under the lock inside the transaction.
  if (await countClients(db) > 0) return refused();

  const hashes = await Promise.all(DEMO_STAFF.map(() => hashPassword(DEMO_PASSWORD)));

  return await db.transaction().execute(async (trx): Promise<SeedResult> => {
    // Two seeds started together must not both pass the check below.
    await sql`SELECT pg_advisory_xact_lock(hashtext('lensdesk.seed'))`.execute(trx);
    if (await countClients(trx) > 0) return refused();

    await trx.updateTable("settings").set({ ...STORE_SETTINGS, updatedAt: now })
      .where("id", "=", 1).execute();
    // A chain of two stores: the first one there is, and Wicker Park. Each
    // quote is its optician's store's; each client's home store its first quote's.
    const store = await findFirstStore(trx);
    const second = await trx.selectFrom("stores").select("id").where("code", "=", SECOND_STORE.code)
      .executeTakeFirst() ?? await trx.insertInto("stores").values({
        ...SECOND_STORE,
        createdAt: now,
        updatedAt: now,
      }).returning("id").executeTakeFirstOrThrow();
    const storesOf = { first: [store.id], second: [second.id], both: [store.id, second.id] };

    // Heard-how options (labels are unique; keep any that already exist).
    await trx.insertInto("heardHowOptions")
      .values(HEARD_HOW.map((label, i) => ({ label, sortOrder: i + 1 })))
      .onConflict((oc) => oc.column("label").doNothing())
      .execute();
    const heardHowRows = await trx.selectFrom("heardHowOptions").select(["id", "label"])
      .where("label", "in", [...HEARD_HOW]).execute();
    const heardHowId = new Map(heardHowRows.map((r) => [r.label, r.id]));

    // Catalog: add the default rows whose name is not there yet, then use
    // whatever rows carry those names.
    const catalog = new Map<CatalogTableName, Map<string, CatalogRow>>();
    for (const table of CATALOG_TABLES) {
      catalog.set(table, await ensureCatalog(trx, table, now));
    }

    // Staff.
    const users: { username: string; role: Role; created: boolean }[] = [];
    const userByUsername = new Map<string, { id: string; fullName: string; storeId: string }>();
    for (const [i, staff] of DEMO_STAFF.entries()) {
      const existing = await trx.selectFrom("users").select(["id", "firstName", "lastName"])
        .where((eb) => eb(eb.fn("lower", ["username"]), "=", staff.username.toLowerCase()))
        .executeTakeFirst();
      if (existing) {
        users.push({ username: staff.username, role: staff.role, created: false });
        const fullName = `${existing.firstName} ${existing.lastName}`.trim();
        userByUsername.set(staff.username, {
          id: existing.id,
          fullName: fullName || staff.username,
          storeId: storesOf[staff.stores][0],
        });
        continue;
      }
      const created = await trx.insertInto("users").values({
        username: staff.username,
        firstName: staff.firstName,
        lastName: staff.lastName,
        email: staff.email,
        role: staff.role,
        passwordHash: hashes[i],
        createdAt: clock.daysAgo(120, 9),
        updatedAt: clock.daysAgo(120, 9),
      }).returning("id").executeTakeFirstOrThrow();
      await addUserStores(trx, created.id, storesOf[staff.stores]);
      users.push({ username: staff.username, role: staff.role, created: true });
      userByUsername.set(staff.username, {
        id: created.id,
        fullName: `${staff.firstName} ${staff.lastName}`,
        storeId: storesOf[staff.stores][0],
      });
    }

    // Clients, their measurements and consent records.
    const clientIds = new Map<string, string>();
    for (const [i, c] of CLIENTS.entries()) {
      const createdAt = c.createdDaysAgo === 0
        ? clock.today(0.2 + i * 0.05)
        : clock.daysAgo(c.createdDaysAgo, 10 + (i % 6), (i * 7) % 60);
      const consent = c.sms || c.emailOptIn;
      const firstQuote = QUOTES.filter((q) => q.client === c.key)
        .sort((a, b) => b.createdDaysAgo - a.createdDaysAgo)[0];
      const homeStoreId = firstQuote
        ? userByUsername.get(firstQuote.optician)?.storeId ?? store.id
        : store.id;
      const row = await trx.insertInto("clients").values({
        homeStoreId,
        firstName: c.firstName,
        middleName: c.middleName ?? null,
        lastName: c.lastName,
        dob: c.dob ?? null,
        email: c.email ?? null,
        homePhone: c.homePhone ?? null,
        mobilePhone: c.mobilePhone ?? null,
        address1: c.address1 ?? null,
        address2: c.address2 ?? null,
        city: c.city ?? null,
        state: c.state ?? null,
        zip: c.zip ?? null,
        mailingAddress: null,
        heardHowId: c.heardHow ? heardHowId.get(c.heardHow) ?? null : null,
        heardHowText: c.heardHowText ?? null,
        smsConsent: c.sms === true,
        emailConsent: c.emailOptIn === true,
        consentDate: consent ? createdAt : null,
        createdAt,
        updatedAt: createdAt,
      }).returning("id").executeTakeFirstOrThrow();
      clientIds.set(c.key, row.id);

      await trx.insertInto("clientMeasurements").values({
        clientId: row.id,
        pdBinocular: c.measurements.pdBinocular,
        pdNear: c.measurements.pdNear,
        measurementsComplete: c.measurements.complete,
        // Cast from text: postgres.js would send a string bound to jsonb as a JSON string.
        extras: sql<string>`${JSON.stringify(c.measurements.extras ?? {})}::text::jsonb`,
        updatedAt: createdAt,
      }).execute();

      const consentRows = [];
      if (c.sms && c.mobilePhone) {
        consentRows.push({
          consentType: "SMS" as const,
          statement: SMS_CONSENT_TEXT,
          target: c.mobilePhone,
        });
      }
      if (c.emailOptIn && c.email) {
        consentRows.push({
          consentType: "EMAIL" as const,
          statement: EMAIL_CONSENT_TEXT,
          target: c.email,
        });
      }
      if (consentRows.length) {
        await trx.insertInto("consentRecords").values(consentRows.map((r) => ({
          ...r,
          clientId: row.id,
          consentGiven: true,
          ip: "10.0.0.42",
          createdAt,
        }))).execute();
      }
    }

    // Quotes, oldest first, so quote numbers grow with creation time.
    const quoteSeeds = QUOTES.map((q, i) => ({ q, i }))
      .sort((a, b) => b.q.createdDaysAgo - a.q.createdDaysAgo || a.i - b.i);
    let optionCount = 0;
    let itemCount = 0;
    for (const { q, i } of quoteSeeds) {
      const clientSeed = CLIENTS.find((c) => c.key === q.client);
      const clientId = clientIds.get(q.client);
      if (!clientSeed || !clientId) throw new Error(`Seed quote for unknown client ${q.client}`);
      const clientIndex = CLIENTS.indexOf(clientSeed);
      const clientCreated = clientSeed.createdDaysAgo === 0
        ? clock.today(0.2 + clientIndex * 0.05)
        : clock.daysAgo(clientSeed.createdDaysAgo, 10 + (clientIndex % 6), (clientIndex * 7) % 60);
      // A little after the client was registered (intake, then the quote).
      const createdAt = q.createdDaysAgo === 0
        ? clock.today(0.2 + clientIndex * 0.05 + 0.01)
        : q.createdDaysAgo === clientSeed.createdDaysAgo
        ? new Date(clientCreated.getTime() + 20 * 60_000)
        : clock.daysAgo(q.createdDaysAgo, 11 + (i % 6), 15);
      const closedAt = q.closed ? clock.daysAgo(q.closed.daysAgo, 16, 30) : null;
      const updatedAt = closedAt ??
        (q.status === "DRAFT" ? createdAt : new Date(
          Math.min(createdAt.getTime() + 45 * 60_000, now.getTime()),
        ));
      const optician = userByUsername.get(q.optician)!;

      const quote = await trx.insertInto("quotes").values({
        clientId,
        storeId: optician.storeId,
        opticianName: optician.fullName,
        status: q.status,
        internalNotes: q.internalNotes ?? "",
        footerMessage: FOOTER_MESSAGE,
        expiresAt: new Date(createdAt.getTime() + 30 * DAY_MS),
        closureReason: q.closed?.reason ?? null,
        closedAt,
        acceptedAt: q.status === "ACCEPTED" ? updatedAt : null,
        finalizedAt: q.status === "FINALIZED" ? updatedAt : null,
        version: q.status === "DRAFT" ? 1 : 2,
        createdBy: optician.id,
        createdAt,
        updatedAt,
      }).returning("id").executeTakeFirstOrThrow();

      for (const [position, o] of q.options.entries()) {
        const items = buildItems(o, catalog);
        const subtotalCents = items.reduce(
          (sum, item) => sum + parseCents(item.unitPrice)! * item.qty,
          0,
        );
        const option = await trx.insertInto("quoteOptions").values({
          quoteId: quote.id,
          position,
          label: o.label,
          notes: o.notes ?? "",
          isChosen: o.chosen === true,
          shipping: o.shipping ?? "0",
          adjustmentAmount: o.adjustment?.amount ?? "0",
          adjustmentReason: o.adjustment?.reason ?? "",
          subtotal: centsToDecimal(subtotalCents),
        }).returning("id").executeTakeFirstOrThrow();
        optionCount++;
        await trx.insertInto("optionItems").values(
          items.map((item, itemPosition) => ({
            ...item,
            optionId: option.id,
            position: itemPosition,
          })),
        ).execute();
        itemCount += items.length;
        if (o.segOc) {
          await trx.insertInto("optionFrameMeasurements")
            .values({ optionId: option.id, segOc: o.segOc, updatedAt }).execute();
        }
      }
    }

    // Written here rather than through recordAudit(): a JSON string bound to a jsonb
    // parameter is stored as a JSON string scalar by postgres.js, so cast from text.
    const details = {
      users: users.filter((u) => u.created).map((u) => u.username),
      clients: CLIENTS.length,
      quotes: QUOTES.length,
    };
    await trx.insertInto("auditLog").values({
      userId: null,
      actor: "system",
      action: "demo.seed",
      entityType: "store",
      entityId: null,
      details: sql<string>`${JSON.stringify(details)}::text::jsonb`,
    }).execute();

    return {
      status: "seeded",
      users,
      password: DEMO_PASSWORD,
      counts: {
        clients: CLIENTS.length,
        quotes: QUOTES.length,
        options: optionCount,
        items: itemCount,
      },
    };
  });
}

function refused(): SeedResult {
  return {
    status: "refused",
    message: "The database already holds clients, so no demo data was added. " +
      "Seed an empty database (for example a fresh DATA_DIR) instead.",
  };
}

async function countClients(db: DB): Promise<number> {
  const row = await db.selectFrom("clients").select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

interface CatalogRow {
  id: string;
  name: string;
  price: string;
  description: string;
}

async function ensureCatalog(
  db: DB,
  table: CatalogTableName,
  now: Date,
): Promise<Map<string, CatalogRow>> {
  const defaults = DEFAULT_CATALOG[table];
  const names = defaults.map((d) => d.name);
  const read = async () => {
    const rows = table === "lensPackages"
      ? await db.selectFrom("lensPackages").select(["id", "name", "price", "description"])
        .where("name", "in", names).orderBy("createdAt").execute()
      : (await db.selectFrom(table).select(["id", "name", "price"])
        .where("name", "in", names).orderBy("createdAt").execute())
        .map((r) => ({ ...r, description: "" }));
    const byName = new Map<string, CatalogRow>();
    for (const r of rows) if (!byName.has(r.name)) byName.set(r.name, r);
    return byName;
  };
  const existing = await read();
  const missing = defaults.filter((d) => !existing.has(d.name));
  if (missing.length) {
    if (table === "lensPackages") {
      await db.insertInto("lensPackages").values(
        (missing as PackageSeedItem[]).map((d) => ({ ...d, createdAt: now, updatedAt: now })),
      ).execute();
    } else {
      await db.insertInto(table).values(
        missing.map((d) => ({
          name: d.name,
          price: d.price,
          sortOrder: d.sortOrder,
          createdAt: now,
          updatedAt: now,
        })),
      ).execute();
    }
  }
  return missing.length ? await read() : existing;
}

interface ItemRow {
  kind: ItemKind;
  name: string;
  sku: string | null;
  unitPrice: string;
  qty: number;
  notes: string;
  catalogId: string | null;
}

function buildItems(o: OptionSeed, catalog: Map<CatalogTableName, Map<string, CatalogRow>>) {
  const pick = (table: CatalogTableName, name: string): CatalogRow => {
    const row = catalog.get(table)?.get(name);
    if (!row) throw new Error(`Seed refers to a missing ${table} entry "${name}"`);
    return row;
  };
  const fromCatalog = (kind: ItemKind, row: CatalogRow, notes = ""): ItemRow => ({
    kind,
    name: row.name,
    sku: null,
    unitPrice: row.price,
    qty: 1,
    notes,
    catalogId: row.id,
  });
  const items: ItemRow[] = [{
    kind: "FRAME",
    name: o.frame.brand,
    sku: o.frame.sku,
    unitPrice: o.frame.price,
    qty: 1,
    notes: "",
    catalogId: null,
  }];
  if ("package" in o.lenses) {
    const pkg = pick("lensPackages", o.lenses.package);
    items.push(fromCatalog("PACKAGE", pkg, pkg.description));
  } else {
    items.push({
      kind: "PACKAGE",
      name: "Custom Package",
      sku: null,
      unitPrice: "0.00",
      qty: 1,
      notes: "",
      catalogId: null,
    });
    items.push(fromCatalog("LENS", pick("lensTypes", o.lenses.lens)));
    items.push(fromCatalog("MATERIAL", pick("materials", o.lenses.material)));
    items.push(fromCatalog("AR", pick("arCoatings", o.lenses.ar)));
  }
  for (const name of o.addOns ?? []) items.push(fromCatalog("ADDON", pick("addOns", name)));
  for (const other of o.others ?? []) {
    items.push({
      kind: "OTHER",
      name: other.name,
      sku: null,
      unitPrice: other.price,
      qty: other.qty ?? 1,
      notes: other.notes ?? "",
      catalogId: null,
    });
  }
  return items;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Times relative to `now`, so the demo always looks current. */
function makeClock(now: Date) {
  const startOfToday = new Date(now);
  startOfToday.setHours(0, 0, 0, 0);
  return {
    /** A moment earlier today: `fraction` of the way from midnight to now. */
    today(fraction: number): Date {
      const f = Math.min(Math.max(fraction, 0), 0.99);
      return new Date(
        startOfToday.getTime() + Math.floor((now.getTime() - startOfToday.getTime()) * f),
      );
    },
    /** `days` calendar days before today at the given local time (never after now). */
    daysAgo(days: number, hour: number, minute = 0): Date {
      const d = new Date(startOfToday);
      d.setDate(d.getDate() - days);
      d.setHours(hour, minute, 0, 0);
      return d.getTime() > now.getTime() ? new Date(now) : d;
    },
  };
}
