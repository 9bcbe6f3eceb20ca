// A generated store at any scale, made by set-based SQL (one statement per
// table per batch, generate_series instead of a loop of inserts), for the
// bench and for the plan tests. Client g (1, 2, 3, ...) is the same person in
// every store, so a store can be filled to 1,000 clients, measured, and
// grown to 100,000 with the first thousand unchanged.
import { sql } from "kysely";
import type { DB } from "../src/db/database.ts";

export interface StoreShape {
  /** Quotes per client (3 in the bench: 300,000 quotes for 100,000 clients). */
  quotesPerClient: number;
  /** Options per quote, and priced items per option. */
  optionsPerQuote: number;
  itemsPerOption: number;
}

export const BENCH_SHAPE: StoreShape = {
  quotesPerClient: 3,
  optionsPerQuote: 2,
  itemsPerOption: 3,
};

/** The search indexes: grams (migration 0018), and the trigrams before them (0007–0017). */
const SEARCH_INDEXES = [
  "clients_search_text_grams_idx",
  "clients_phone_digits_grams_idx",
  "quotes_search_text_grams_idx",
  "clients_search_text_trgm_idx",
  "clients_phone_digits_trgm_idx",
  "quotes_search_text_trgm_idx",
];

/** Those the store has: tests fill stores migrated part of the way. */
async function searchIndexesOf(db: DB) {
  const { rows } = await sql<{ relname: string }>`select relname from pg_class
    where relkind = 'i' and relname in (${sql.join(SEARCH_INDEXES)})`.execute(db);
  return rows.map((r) => r.relname);
}

/** Clients per statement: small enough to show progress, large enough to stay set-based. */
const BATCH = 10_000;

/*
 * Who the clients are. Names are made of syllables so names and e-mails vary
 * the way real ones do (one word shared by every row would make every trigram
 * common): ten first names, 8,000 last names. Client g is created g × 15
 * minutes ago, so 100,000 clients span about three years of a store's
 * history and a bigger store is an older one.
 */
const S1 = `array['ab','bel','cor','dun','ed','fal','gar','hol','ing','jor','kal','lin','mor',
  'nor','ost','pal','quin','ros','sal','tor']`;
const S2 = `array['va','wen','xi','yor','zu','ba','ce','di','fo','gu','he','ja','ko','lu','me',
  'ni','po','ra','si','te']`;
const S3 = `array['son','berg','ley','man','ton','well','wood','ford','stein','ski','ez','ova','er',
  'ini','oux','ard','an','ow','ic','ay']`;
const PRICES = "array[189, 120, 45, 30]::numeric[]";
const FIRST = `array['Ann','Ben','Carla','Dana','Eve','Farid','Gus','Hana','Ivo','June']`;

/** Client g's last name, as the generator writes it (for picking search words). */
export function lastNameOf(g: number): string {
  const s1 = [
    "ab",
    "bel",
    "cor",
    "dun",
    "ed",
    "fal",
    "gar",
    "hol",
    "ing",
    "jor",
    "kal",
    "lin",
    "mor",
    "nor",
    "ost",
    "pal",
    "quin",
    "ros",
    "sal",
    "tor",
  ];
  const s2 = [
    "va",
    "wen",
    "xi",
    "yor",
    "zu",
    "ba",
    "ce",
    "di",
    "fo",
    "gu",
    "he",
    "ja",
    "ko",
    "lu",
    "me",
    "ni",
    "po",
    "ra",
    "si",
    "te",
  ];
  const s3 = [
    "son",
    "berg",
    "ley",
    "man",
    "ton",
    "well",
    "wood",
    "ford",
    "stein",
    "ski",
    "ez",
    "ova",
    "er",
    "ini",
    "oux",
    "ard",
    "an",
    "ow",
    "ic",
    "ay",
  ];
  const name = s1[g % 20] + s2[Math.floor(g / 20) % 20] + s3[Math.floor(g / 400) % 20];
  return name[0].toUpperCase() + name.slice(1);
}

/** Client g's mobile number's digits (area code, exchange, line). */
export function mobileDigitsOf(g: number): string {
  return `${200 + (g % 800)}${200 + (Math.floor(g / 800) % 800)}${
    String(g % 10000).padStart(4, "0")
  }`;
}

/**
 * Adds clients from+1 … to with their measurements, quotes, options and
 * items. Quotes expire 30 days after they were made; the ones past their
 * expiry are mostly closed or finalized, as in a store that follows up, and
 * a few are still open (the dashboard's follow-up list).
 */
export async function fillStore(
  db: DB,
  from: number,
  to: number,
  shape: StoreShape,
  progress: (done: number, total: number) => void = () => {},
): Promise<void> {
  // Search grams go to each GIN index's pending list while filling:
  // row-by-row insertion into the index (its setting for a store's day-to-day
  // writes, migrations 0007 and 0018) is what made a fill take minutes.
  const indexes = await searchIndexesOf(db);
  for (const index of indexes) {
    await sql`alter index ${sql.id(index)} set (fastupdate = on)`.execute(db);
  }
  for (let start = from + 1; start <= to; start += BATCH) {
    const end = Math.min(start + BATCH - 1, to);
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`insert into clients (first_name, last_name,
          email, mobile_phone, home_phone, city, state, zip, created_at)
        select (${sql.raw(FIRST)})[1 + g % 10], initcap(s1 || s2 || s3),
          s1 || s3 || g || '@example.com',
          '(' || (200 + g % 800) || ') ' || (200 + (g / 800) % 800) || '-' ||
            lpad((g % 10000)::text, 4, '0'),
          case when g % 3 = 0 then '555.200.' || lpad((g % 10000)::text, 4, '0') end,
          'Springfield', 'IL', '62701',
          now() - make_interval(mins => g * 15)
        from generate_series(${start}::int, ${end}::int) g, lateral (select
          (${sql.raw(S1)})[1 + g % 20] s1, (${sql.raw(S2)})[1 + (g / 20) % 20] s2,
          (${sql.raw(S3)})[1 + (g / 400) % 20] s3) syllables
        returning id`.execute(trx);
      // Every later statement is limited to this batch's clients.
      const batch = sql`(select unnest(${
        sql.lit("{" + rows.map((r) => r.id).join(",") + "}")
      }::uuid[]) id)`;
      await sql`insert into client_measurements (client_id, pd_binocular, pd_near,
          measurements_complete)
        select b.id, 62, 59, (abs(hashtext(b.id::text)) % 10) <> 0 from ${batch} b`.execute(trx);
      await sql`insert into quotes (client_id, optician_name, status, expires_at, closure_reason,
          closed_at, created_at, updated_at)
        select c.id, (array['Dr. Ortiz','Sam Lee','Kim Novak','Dr. Weiss'])[1 + (h % 4)],
          st.status, t.created + interval '30 days',
          case when st.status = 'CLOSED' then 'Client went elsewhere' end,
          case when st.status = 'CLOSED' then t.created + interval '31 days' end,
          t.created, t.created + interval '1 hour'
        from ${batch} b join clients c on c.id = b.id
        cross join generate_series(1, ${shape.quotesPerClient}) n
        cross join lateral (select abs(hashtext(c.id::text || n)) h) hh
        cross join lateral (select least(c.created_at + make_interval(days => (n - 1) * 7),
          now() - interval '1 minute') created) t
        cross join lateral (select case
          when t.created + interval '30 days' >= now() then
            (array['DRAFT','ACTIVE','ACTIVE','ACTIVE','PENDING_MEASUREMENTS','EMAILED',
              'EMAILED','ACCEPTED'])[1 + h % 8]
          else (array['CLOSED','CLOSED','CLOSED','CLOSED','CLOSED','CLOSED','CLOSED',
            'CLOSED','FINALIZED','FINALIZED','FINALIZED','FINALIZED','EMAILED','ACTIVE'])[1 + h % 14]
          end status) st`.execute(trx);
      // Item prices cycle through PRICES, so each option's subtotal is known up front.
      await sql`insert into quote_options (quote_id, position, label, is_chosen, shipping,
          subtotal)
        select q.id, p, 'Option ' || (p + 1), q.status in ('ACCEPTED', 'FINALIZED') and p = 0,
          case when p = 1 then 15 else 0 end,
          (select sum((${sql.raw(PRICES)})[1 + i % 4])
            from generate_series(0, ${shape.itemsPerOption - 1}) i)
        from ${batch} b join quotes q on q.client_id = b.id
        cross join generate_series(0, ${shape.optionsPerQuote - 1}) p`.execute(trx);
      await sql`insert into option_items (option_id, position, kind, name, sku, unit_price, qty)
        select o.id, i, (array['FRAME','LENS','AR','ADDON'])[1 + i % 4],
          (array['Ray-Ban RB5154','Single Vision','Anti-glare','Blue light'])[1 + i % 4],
          case when i % 4 = 0 then 'RB5154-' || (100 + o.position) end,
          (${sql.raw(PRICES)})[1 + i % 4], 1
        from ${batch} b join quotes q on q.client_id = b.id
        join quote_options o on o.quote_id = q.id
        cross join generate_series(0, ${shape.itemsPerOption - 1}) i`.execute(trx);
    });
    progress(end - from, to - from);
  }
  // Then each is built afresh. Merging a pending list this large leaves the
  // index half empty (at 100,000 clients: 10 MB for the clients' names, 22 MB
  // for the quotes'), and every search then reads the extra pages. A store's
  // own index, grown row by row, is as compact as a fresh build: the names'
  // trigram index (0007) filled row by row from the same 100,000 clients came
  // to 6.2 MB, a rebuild to 6.1 MB.
  for (const index of indexes) {
    await sql`alter index ${sql.id(index)} set (fastupdate = off)`.execute(db);
    await sql`reindex index ${sql.id(index)}`.execute(db);
  }
}
