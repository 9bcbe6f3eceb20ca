// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

/*
 * Spectacle prescriptions per client, modelled on FHIR's VisionPrescription:
 * one row per written prescription, with the lens specification of each eye
 * in columns (od_ = right eye, os_ = left eye). The API validates every range
 * and step first; the CHECKs are the last line, so no other writer (a restore,
 * a script) can store a value a lab would refuse.
 *
 * A quote's carried-over measurements: a new quote for a returning client
 * starts from the previous quote's PD, SEG/OC and extras, marked as carried
 * over until someone confirms them at the chair.
 */
const eyeColumns = (eye: "od" | "os") =>
  sql.raw(`
      ${eye}_sphere numeric(4,2) NOT NULL
        CHECK (${eye}_sphere BETWEEN -30 AND 30 AND mod(${eye}_sphere * 100, 25) = 0),
      ${eye}_cylinder numeric(4,2)
        CHECK (${eye}_cylinder BETWEEN -15 AND 15 AND mod(${eye}_cylinder * 100, 25) = 0),
      ${eye}_axis smallint CHECK (${eye}_axis BETWEEN 1 AND 180),
      ${eye}_add numeric(3,2)
        CHECK (${eye}_add BETWEEN 0.25 AND 4 AND mod(${eye}_add * 100, 25) = 0),
      ${eye}_prism_amount numeric(4,2) CHECK (${eye}_prism_amount BETWEEN 0.25 AND 20),
      ${eye}_prism_base text CHECK (${eye}_prism_base IN ('up', 'down', 'in', 'out')),
      CHECK ((coalesce(${eye}_cylinder, 0) <> 0) = (${eye}_axis IS NOT NULL)),
      CHECK ((${eye}_prism_amount IS NULL) = (${eye}_prism_base IS NULL)),`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE prescriptions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
      date_written date NOT NULL,
      prescriber text NOT NULL CHECK (btrim(prescriber) <> ''),
      expires_on date CHECK (expires_on >= date_written),
      notes text NOT NULL DEFAULT '',
      ${eyeColumns("od")}
      ${eyeColumns("os")}
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  // The client's list, newest written first, and "the latest" for the print.
  await sql`CREATE INDEX prescriptions_client_idx
    ON prescriptions (client_id, date_written DESC, created_at DESC)`.execute(db);

  await sql`
    CREATE TABLE quote_carry_overs (
      quote_id uuid PRIMARY KEY REFERENCES quotes (id) ON DELETE CASCADE,
      source_quote_id uuid REFERENCES quotes (id) ON DELETE SET NULL,
      -- Kept as text so the mark still reads right after the source is deleted.
      source_quote_number text NOT NULL,
      source_date timestamptz NOT NULL,
      pd_binocular numeric(4,1) NOT NULL,
      pd_near numeric(4,1) NOT NULL,
      seg_oc text NOT NULL DEFAULT '',
      extras jsonb NOT NULL DEFAULT '{}'::jsonb,
      confirmed_at timestamptz,
      confirmed_by text
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS quote_carry_overs`.execute(db);
  await sql`DROP TABLE IF EXISTS prescriptions`.execute(db);
}
