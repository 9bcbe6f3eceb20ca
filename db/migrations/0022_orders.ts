// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Orders: a finalized quote becomes an order of jobs, one per
 * chosen option, each a pair of glasses at a lab. A job carries a frozen copy
 * of what was sold (items, prices, measurements, the prescription picked), so
 * a later change to the quote, the catalog or the client's records never
 * changes what the lab was asked to make or what the client owes.
 */
const STATUSES = `'ORDERED', 'SENT_TO_LAB', 'RECEIVED', 'CHECKED', 'READY', 'PICKED_UP',
  'CANCELLED', 'REMAKE'`;

const NOTIFYING = ["labs", "orders", "jobs", "payments"];

export async function up(db: Kysely<unknown>): Promise<void> {
  // The store's opening days (0 = Sunday … 6 = Saturday, comma-separated) and
  // hours in its time zone: promised dates count business days, and the
  // ready-for-pickup e-mail waits for opening.
  await sql`ALTER TABLE settings
    ADD COLUMN opening_days text NOT NULL DEFAULT '1,2,3,4,5,6'
      CHECK (opening_days ~ '^[0-6](,[0-6]){0,6}$'),
    ADD COLUMN opening_time text NOT NULL DEFAULT '09:00'
      CHECK (opening_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    ADD COLUMN closing_time text NOT NULL DEFAULT '18:00'
      CHECK (closing_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
    ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC',
    ADD COLUMN ready_email_subject text,
    ADD COLUMN ready_email_body text,
    ADD COLUMN ready_undo_minutes integer NOT NULL DEFAULT 10
      CHECK (ready_undo_minutes BETWEEN 0 AND 120),
    ADD COLUMN ready_waiting_days integer NOT NULL DEFAULT 14
      CHECK (ready_waiting_days BETWEEN 1 AND 365)`.execute(db);

  await sql`
    CREATE TABLE labs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL CHECK (btrim(name) <> ''),
      email text,
      phone text,
      account_number text,
      turnaround_days integer NOT NULL CHECK (turnaround_days BETWEEN 0 AND 90),
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX labs_name_idx ON labs (lower(name))`.execute(db);

  await sql`
    CREATE TABLE orders (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      -- One order per finalized quote: a second "Create Order" is refused.
      quote_id uuid UNIQUE REFERENCES quotes (id) ON DELETE SET NULL,
      quote_number text NOT NULL,
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE RESTRICT,
      optician_name text NOT NULL DEFAULT '',
      notes text NOT NULL DEFAULT '',
      version integer NOT NULL DEFAULT 1,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX orders_client_idx ON orders (client_id, created_at DESC)`.execute(db);

  await sql`CREATE SEQUENCE job_number_seq START 1`.execute(db);
  await sql`
    CREATE TABLE jobs (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      job_number text NOT NULL UNIQUE
        DEFAULT ('J-' || lpad(nextval('job_number_seq')::text, 6, '0')),
      order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      position integer NOT NULL,
      option_label text NOT NULL DEFAULT '',
      lab_id uuid NOT NULL REFERENCES labs (id) ON DELETE RESTRICT,
      status text NOT NULL DEFAULT 'ORDERED' CHECK (status IN (${sql.raw(STATUSES)})),
      -- The frozen copy: items with prices, the option's money, measurements, Rx.
      items jsonb NOT NULL,
      shipping numeric(12,2) NOT NULL DEFAULT 0,
      adjustment_amount numeric(12,2) NOT NULL DEFAULT 0,
      total numeric(12,2) NOT NULL CHECK (total >= 0),
      measurements jsonb NOT NULL,
      prescription jsonb,
      notes text NOT NULL DEFAULT '',
      ordered_at timestamptz NOT NULL DEFAULT now(),
      promised_date date NOT NULL,
      remake_count integer NOT NULL DEFAULT 0 CHECK (remake_count >= 0),
      ready_at timestamptz,
      picked_up_at timestamptz,
      client_notified_at timestamptz,
      version integer NOT NULL DEFAULT 1,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX jobs_order_idx ON jobs (order_id, position)`.execute(db);
  await sql`CREATE INDEX jobs_status_idx ON jobs (status, promised_date)`.execute(db);

  // Each transition of a job: the timeline the order page shows.
  await sql`
    CREATE TABLE job_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      job_id uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
      at timestamptz NOT NULL DEFAULT now(),
      from_status text,
      to_status text NOT NULL,
      reason text,
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      actor text NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX job_events_job_idx ON job_events (job_id, at)`.execute(db);

  await sql`
    CREATE TABLE payments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
      amount numeric(12,2) NOT NULL CHECK (amount <> 0),
      method text NOT NULL CHECK (method IN ('CASH', 'CARD', 'CHEQUE', 'OTHER')),
      paid_on date NOT NULL,
      note text NOT NULL DEFAULT '',
      -- A refund (negative amount) always says why.
      reason text CHECK (amount > 0 OR btrim(coalesce(reason, '')) <> ''),
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      actor text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX payments_order_idx ON payments (order_id, created_at)`.execute(db);

  // The ready-for-pickup notice and the lab's work order go through the outbox.
  await sql`ALTER TABLE email_outbox ADD COLUMN job_id uuid REFERENCES jobs (id)
    ON DELETE SET NULL`.execute(db);
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET', 'SECURITY_NOTICE', 'READY_NOTICE',
      'WORK_ORDER'))`.execute(db);

  // Kept reads (the dashboard) that read these hear other processes' writes
  // through the notice function of migration 0017.
  for (const table of NOTIFYING) {
    await sql`
      CREATE TRIGGER ${sql.id(`${table}_written`)}
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)}
      FOR EACH STATEMENT EXECUTE FUNCTION lensdesk_table_written()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM email_outbox WHERE kind IN ('READY_NOTICE', 'WORK_ORDER')`.execute(db);
  await sql`ALTER TABLE email_outbox DROP CONSTRAINT IF EXISTS email_outbox_kind_check`
    .execute(db);
  await sql`ALTER TABLE email_outbox ADD CONSTRAINT email_outbox_kind_check
    CHECK (kind IN ('QUOTE', 'TEST', 'PASSWORD_RESET', 'SECURITY_NOTICE'))`.execute(db);
  await sql`ALTER TABLE email_outbox DROP COLUMN IF EXISTS job_id`.execute(db);
  await sql`DROP TABLE IF EXISTS payments`.execute(db);
  await sql`DROP TABLE IF EXISTS job_events`.execute(db);
  await sql`DROP TABLE IF EXISTS jobs`.execute(db);
  await sql`DROP SEQUENCE IF EXISTS job_number_seq`.execute(db);
  await sql`DROP TABLE IF EXISTS orders`.execute(db);
  await sql`DROP TABLE IF EXISTS labs`.execute(db);
  await sql`ALTER TABLE settings
    DROP COLUMN IF EXISTS opening_days, DROP COLUMN IF EXISTS opening_time,
    DROP COLUMN IF EXISTS closing_time, DROP COLUMN IF EXISTS time_zone,
    DROP COLUMN IF EXISTS ready_email_subject, DROP COLUMN IF EXISTS ready_email_body,
    DROP COLUMN IF EXISTS ready_undo_minutes, DROP COLUMN IF EXISTS ready_waiting_days`
    .execute(db);
}
