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

/** The tables a fill writes, parents before children. */
const FILLED = ["clients", "client_measurements", "quotes", "quote_options", "option_items"];

/** Clients per statement: 25,000 clients are 75,000 quotes, 150,000 options and 450,000 items. */
const BATCH = 25_000;

/*
 * Who the clients are. Names are made of syllables so names and e-mails vary
 * the way real ones do (one word shared by every row would make every trigram
 * common): ten first names, 8,000 last names. Client g is created g × 15
 * minutes ago, so 100,000 clients span about three years of a store's
 * history and a bigger store is an older one.
 */
/** Two rows of each: the first syllables, the middle ones, the last ones. */
const SYLLABLES = [
  ["ab", "bel", "cor", "dun", "ed", "fal", "gar", "hol", "ing", "jor"],
  ["kal", "lin", "mor", "nor", "ost", "pal", "quin", "ros", "sal", "tor"],
  ["va", "wen", "xi", "yor", "zu", "ba", "ce", "di", "fo", "gu"],
  ["he", "ja", "ko", "lu", "me", "ni", "po", "ra", "si", "te"],
  ["son", "berg", "ley", "man", "ton", "well", "wood", "ford", "stein", "ski"],
  ["ez", "ova", "er", "ini", "oux", "ard", "an", "ow", "ic", "ay"],
];
/** A last name's first, middle and last syllables: client g's are [g % 20], [g / 20 % 20], [g / 400 % 20]. */
const SYL1 = [...SYLLABLES[0], ...SYLLABLES[1]];
const SYL2 = [...SYLLABLES[2], ...SYLLABLES[3]];
const SYL3 = [...SYLLABLES[4], ...SYLLABLES[5]];
const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(",")}]`;
const S1 = sqlArray(SYL1);
const S2 = sqlArray(SYL2);
const S3 = sqlArray(SYL3);
const PRICES = "array[189, 120, 45, 30]::numeric[]";
const FIRST = `array['Ann','Ben','Carla','Dana','Eve','Farid','Gus','Hana','Ivo','June']`;

const syllables = (g: number) =>
  [SYL1[g % 20], SYL2[Math.floor(g / 20) % 20], SYL3[Math.floor(g / 400) % 20]] as const;

/** Client g's last name, as the generator writes it (for picking search words). */
export function lastNameOf(g: number): string {
  const name = syllables(g).join("");
  return name[0].toUpperCase() + name.slice(1);
}

/** The last syllable of client g's last name: one client in 20 has it. */
export function lastNameSyllable(g: number): string {
  return syllables(g)[2];
}

/** Client g's e-mail before the @: first and last syllables and g, as in "rosberg777". */
export function emailNameOf(g: number): string {
  const [s1, , s3] = syllables(g);
  return `${s1}${s3}${g}`;
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
 *
 * Where the time went before (on the server, one transaction per 10,000
 * clients: 65 s for 10,000 clients on a busy machine): each batch's quotes,
 * options and items were found again by joins through the indexes the fill
 * was writing, every row checked its foreign key and ran the quotes' row
 * trigger that copies the client's name, every index took the rows one at a
 * time at random places (random ids), and the search grams went to the GIN
 * indexes' pending lists and were computed again when those were rebuilt at
 * the end (24 of the 65 s). Now:
 *
 * - each batch is one statement: the rows get their ids before they are
 *   written, so a quote's options name it without looking it up;
 * - the ids ascend (storeIds): a key takes each row at its end, as a key
 *   built by a sort would, not at a random page of an index larger than the
 *   server's buffers;
 * - the triggers do not run (session_replication_role = replica, which also
 *   skips the foreign key checks of these rows, consistent by construction; a
 *   role that may not set it disables the tables' own triggers instead and
 *   keeps the checks), and what they keep is written here as they would
 *   have: the client's name on each quote, quote_expiry_counts recounted
 *   from the quotes in one statement, and one table-write notice per table;
 * - all of it in one transaction: a fill that fails leaves the store as it was;
 * - the indexes other than the constraints' are dropped in that transaction
 *   and built after it from the whole table, as fresh and compact as the
 *   rebuild was, several at once (a GIN index of grams is built by one
 *   process, and computing the grams is most of a fill's time).
 */
export async function fillStore(
  db: DB,
  from: number,
  to: number,
  shape: StoreShape,
  progress: (done: number, total: number) => void = () => {},
  /** Called when the rows are in and the indexes are being built. */
  step: (name: "indexes") => void = () => {},
): Promise<void> {
  const tables = sql`(select oid from pg_class
    where relname in (${sql.join(FILLED)}) and pg_table_is_visible(oid))`;
  const indexes = await db.transaction().execute(async (trx) => {
    const { rows: [{ superuser }] } = await sql<{ superuser: boolean }>`select
      current_setting('is_superuser') = 'on' superuser`.execute(trx);
    if (superuser) {
      await sql`set local session_replication_role = replica`.execute(trx);
    } else {
      for (const table of FILLED) {
        await sql`alter table ${sql.table(table)} disable trigger user`.execute(trx);
      }
    }
    // Materialized batches stay in memory.
    await sql`set local work_mem = '64MB'`.execute(trx);
    const { rows: indexes } = await sql<{ name: string; definition: string }>`select
        indexrelid::regclass::text "name", pg_get_indexdef(indexrelid) definition
      from pg_index
      where indrelid in ${tables} and not exists (select from pg_constraint c
        where c.conindid = indexrelid and c.conrelid = indrelid and c.contype in ('p', 'u', 'x'))
      order by 1`.execute(trx);
    for (const index of indexes) await sql`drop index ${sql.raw(index.name)}`.execute(trx);

    const ids = storeIds();
    const chain = await chainStores(trx);
    for (let start = from + 1; start <= to; start += BATCH) {
      const end = Math.min(start + BATCH - 1, to);
      await fillBatch(trx, start, end, shape, ids, chain);
      progress(end - from, to - from);
    }

    const { rows: [{ counts, byStore }] } = await sql<
      { counts: string | null; byStore: boolean }
    >`select to_regclass('quote_expiry_counts')::text counts,
      exists (select from information_schema.columns where table_name = 'quote_expiry_counts'
        and column_name = 'store_id') as "byStore"`.execute(trx);
    if (counts) {
      // What the insert trigger (migration 0016, per store since 0038) adds up statement by statement.
      await sql`delete from quote_expiry_counts`.execute(trx);
      if (byStore) {
        await sql`insert into quote_expiry_counts (status, expires_on, store_id, n)
          select status, quote_expiry_day(expires_at), store_id, count(*) from quotes
          group by 1, 2, 3`.execute(trx);
      } else {
        await sql`insert into quote_expiry_counts (status, expires_on, n)
          select status, quote_expiry_day(expires_at), count(*) from quotes group by 1, 2`
          .execute(trx);
      }
    }
    if (!superuser) {
      for (const table of FILLED) {
        await sql`alter table ${sql.table(table)} enable trigger user`.execute(trx);
      }
    }
    // The notices the tables' statement triggers (migration 0017) would have sent at commit.
    await sql`select pg_notify('lensdesk_table_writes',
        relname || ' ' || current_setting('application_name'))
      from pg_trigger join pg_class on pg_class.oid = tgrelid
      where tgname = relname || '_written' and tgrelid in ${tables}`.execute(trx);
    return indexes;
  });
  step("indexes");
  // The largest first, each on a connection of its own (an embedded store has one).
  const queue = [...indexes].sort((a, b) => gramsFirst(a.definition) - gramsFirst(b.definition));
  await Promise.all(
    Array.from({ length: INDEX_BUILDERS }, async () => {
      for (let index = queue.shift(); index; index = queue.shift()) {
        await db.connection().execute(async (conn) => {
          await sql`set maintenance_work_mem = '256MB'`.execute(conn);
          await sql.raw(index.definition).execute(conn);
          await sql`reset maintenance_work_mem`.execute(conn);
        });
      }
    }),
  );
}

/**
 * The chain's active stores by code (migration 0036), among which the clients
 * and their quotes are spread evenly: client g and its quotes in store
 * 1 + g mod n. Null on a schema from before stores.
 */
async function chainStores(db: DB): Promise<string[] | null> {
  const { rows: [{ stores }] } = await sql<{ stores: string | null }>`select
    to_regclass('stores')::text stores`.execute(db);
  if (!stores) return null;
  const { rows } = await sql<{ id: string }>`select id from stores where active order by code`
    .execute(db);
  return rows.map((r) => r.id);
}

/** Indexes built at once after a fill: the three GIN indexes of grams, then the rest. */
const INDEX_BUILDERS = 3;
const gramsFirst = (definition: string) => definition.includes(" USING gin ") ? 0 : 1;

/*
 * Ids that ascend, one kind per table: the layout of a UUID version 7 (RFC
 * 9562), the milliseconds of the fill's start in its first 48 bits, then the
 * version, the table, the variant, and in the last 48 bits the row's number
 * in the generator (client g; its quote n; that quote's option p; its item
 * i). A later fill starts later: its ids come after. Random ids (the
 * columns' default, gen_random_uuid()) would put each row at a random page of
 * each key, an index larger than the server's buffers at a million clients.
 */
function storeIds() {
  const ms = Date.now().toString(16).padStart(12, "0");
  const prefix = `${ms.slice(0, 8)}-${ms.slice(8)}-7`;
  return (table: 1 | 2 | 3 | 4, n: ReturnType<typeof sql>) =>
    sql`(${prefix + "00" + table + "-8000-"} || lpad(to_hex(${n}), 12, '0'))::uuid`;
}

/**
 * Clients start … end and everything of theirs, in one statement. Quote
 * numbers are made as the column default makes them (migration 0026): six
 * digits up to Q-999999, all their digits from there (only the --huge store
 * gets there).
 */
async function fillBatch(
  db: DB,
  start: number,
  end: number,
  shape: StoreShape,
  id: ReturnType<typeof storeIds>,
  chain: string[] | null,
) {
  // Each client's store, and its quotes' (the client's): none before migration 0036.
  const store = chain
    ? sql`(${sql.lit(`{${chain.join(",")}}`)}::uuid[])[1 + g % ${sql.lit(chain.length)}]`
    : sql`null::uuid`;
  const clientStore = chain ? sql`, home_store_id` : sql``;
  const quoteStore = chain ? sql`, store_id` : sql``;
  /** The store column of the rows selected for either insert. */
  const storeValue = chain ? sql`, store_id` : sql``;
  const quoteNumber = sql`c.g::bigint * ${shape.quotesPerClient} + n - 1`;
  const optionNumber = sql`q.n * ${shape.optionsPerQuote} + p`;
  const itemNumber = sql`o.n * ${shape.itemsPerOption} + i`;
  await sql`with c as materialized (
      select g, ${id(1, sql`g`)} id, ${store} store_id,
        (${sql.raw(FIRST)})[1 + g % 10] first_name,
        initcap(s1 || s2 || s3) last_name, s1 || s3 || g || '@example.com' email,
        '(' || (200 + g % 800) || ') ' || (200 + (g / 800) % 800) || '-' ||
          lpad((g % 10000)::text, 4, '0') mobile_phone,
        case when g % 3 = 0 then '555.200.' || lpad((g % 10000)::text, 4, '0') end home_phone,
        now() - make_interval(mins => g * 15) created_at
      from generate_series(${start}::int, ${end}::int) g, lateral (select
        (${sql.raw(S1)})[1 + g % 20] s1, (${sql.raw(S2)})[1 + (g / 20) % 20] s2,
        (${sql.raw(S3)})[1 + (g / 400) % 20] s3) syllables
    ), new_clients as (
      insert into clients (id, first_name, last_name, email, mobile_phone, home_phone, city,
        state, zip, created_at${clientStore})
      select id, first_name, last_name, email, mobile_phone, home_phone, 'Springfield', 'IL',
        '62701', created_at${storeValue} from c
    ), new_measurements as (
      insert into client_measurements (client_id, pd_binocular, pd_near, measurements_complete)
      select id, 62, 59, (abs(hashtext(g::text)) % 10) <> 0 from c
    ), q as materialized (
      select ${quoteNumber} n, ${id(2, quoteNumber)} id, c.id client_id, c.store_id,
        coalesce(c.first_name || ' ' || c.last_name, '') client_name,
        nextval('quote_number_seq') number, h, t.created, st.status
      from c cross join generate_series(1, ${shape.quotesPerClient}) n
      cross join lateral (select abs(hashtext(g || ':' || n)) h) hh
      cross join lateral (select least(c.created_at + make_interval(days => (n - 1) * 7),
        now() - interval '1 minute') created) t
      cross join lateral (select case
        when t.created + interval '30 days' >= now() then
          (array['DRAFT','ACTIVE','ACTIVE','ACTIVE','PENDING_MEASUREMENTS','EMAILED',
            'EMAILED','ACCEPTED'])[1 + h % 8]
        else (array['CLOSED','CLOSED','CLOSED','CLOSED','CLOSED','CLOSED','CLOSED',
          'CLOSED','FINALIZED','FINALIZED','FINALIZED','FINALIZED','EMAILED','ACTIVE'])[1 + h % 14]
        end status) st
    ), new_quotes as (
      insert into quotes (id, quote_number, client_id, client_name, optician_name, status,
        expires_at, closure_reason, closed_at, created_at, updated_at${quoteStore})
      select id, 'Q-' || case when number < 1000000 then lpad(number::text, 6, '0')
          else number::text end,
        client_id, client_name, (array['Dr. Ortiz','Sam Lee','Kim Novak','Dr. Weiss'])[1 + (h % 4)],
        status, created + interval '30 days',
        case when status = 'CLOSED' then 'Client went elsewhere' end,
        case when status = 'CLOSED' then created + interval '31 days' end,
        created, created + interval '1 hour'${storeValue}
      from q
    ), o as materialized (
      select ${optionNumber} n, ${id(3, optionNumber)} id, q.id quote_id, p position,
        q.status in ('ACCEPTED', 'FINALIZED') and p = 0 is_chosen
      from q cross join generate_series(0, ${shape.optionsPerQuote - 1}) p
    ), new_options as (
      -- Item prices cycle through PRICES, so each option's subtotal is known up front.
      insert into quote_options (id, quote_id, position, label, is_chosen, shipping, subtotal)
      select id, quote_id, position, 'Option ' || (position + 1), is_chosen,
        case when position = 1 then 15 else 0 end,
        (select sum((${sql.raw(PRICES)})[1 + i % 4])
          from generate_series(0, ${shape.itemsPerOption - 1}) i)
      from o
    )
    insert into option_items (id, option_id, position, kind, name, sku, unit_price, qty)
    select ${id(4, itemNumber)}, o.id, i, (array['FRAME','LENS','AR','ADDON'])[1 + i % 4],
      (array['Ray-Ban RB5154','Single Vision','Anti-glare','Blue light'])[1 + i % 4],
      case when i % 4 = 0 then 'RB5154-' || (100 + o.position) end,
      (${sql.raw(PRICES)})[1 + i % 4], 1
    from o cross join generate_series(0, ${shape.itemsPerOption - 1}) i`.execute(db);
}
