// Frozen in time: this migration must never import application code.
import { type Kysely, sql } from "kysely";

const catalogTables = ["lens_packages", "lens_types", "materials", "ar_coatings", "add_ons"];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      first_name text NOT NULL DEFAULT '',
      last_name text NOT NULL DEFAULT '',
      username text NOT NULL,
      email text,
      role text NOT NULL DEFAULT 'AUTHORIZED_USER'
        CHECK (role IN ('AUTHORIZED_USER', 'ADMIN', 'OWNER')),
      password_hash text,
      external_subject text UNIQUE,
      is_external boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (char_length(username) >= 3)
    )`.execute(db);
  // Usernames are unique regardless of case so "Anna" and "anna" cannot both exist.
  await sql`CREATE UNIQUE INDEX users_username_lower_idx ON users (lower(username))`.execute(db);
  await sql`CREATE INDEX users_email_lower_idx ON users (lower(email))`.execute(db);

  await sql`
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      absolute_expires_at timestamptz NOT NULL,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`CREATE INDEX sessions_user_id_idx ON sessions (user_id)`.execute(db);
  await sql`CREATE INDEX sessions_expires_at_idx ON sessions (expires_at)`.execute(db);

  await sql`
    CREATE TABLE password_reset_tokens (
      id text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db);
  await sql`CREATE INDEX password_reset_tokens_user_id_idx ON password_reset_tokens (user_id)`
    .execute(db);

  await sql`
    CREATE TABLE heard_how_options (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      label text NOT NULL UNIQUE CHECK (btrim(label) <> ''),
      sort_order integer NOT NULL DEFAULT 0,
      active boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  await sql`
    CREATE TABLE clients (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      first_name text NOT NULL CHECK (btrim(first_name) <> ''),
      middle_name text,
      last_name text NOT NULL CHECK (btrim(last_name) <> ''),
      dob date,
      email text,
      home_phone text,
      mobile_phone text,
      address1 text,
      address2 text,
      city text,
      state text CHECK (state IS NULL OR state ~ '^[A-Z]{2}$'),
      zip text,
      mailing_address text,
      heard_how_id uuid REFERENCES heard_how_options (id) ON DELETE SET NULL,
      heard_how_text text,
      sms_consent boolean NOT NULL DEFAULT false,
      email_consent boolean NOT NULL DEFAULT false,
      consent_date timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX clients_created_at_idx ON clients (created_at DESC)`.execute(db);
  await sql`CREATE INDEX clients_last_name_idx ON clients (lower(last_name) text_pattern_ops)`
    .execute(db);
  await sql`CREATE INDEX clients_first_name_idx ON clients (lower(first_name) text_pattern_ops)`
    .execute(db);
  await sql`CREATE INDEX clients_email_idx ON clients (lower(email) text_pattern_ops)`.execute(db);
  // Phone search compares digits only, so "(555) 010-2030" finds "555-010-2030".
  await sql`CREATE INDEX clients_mobile_digits_idx
    ON clients ((regexp_replace(coalesce(mobile_phone, ''), '[^0-9]', '', 'g')) text_pattern_ops)`
    .execute(db);
  await sql`CREATE INDEX clients_home_digits_idx
    ON clients ((regexp_replace(coalesce(home_phone, ''), '[^0-9]', '', 'g')) text_pattern_ops)`
    .execute(db);

  await sql`
    CREATE TABLE client_measurements (
      client_id uuid PRIMARY KEY REFERENCES clients (id) ON DELETE CASCADE,
      pd_binocular numeric(4,1) NOT NULL DEFAULT 0 CHECK (pd_binocular BETWEEN 0 AND 90),
      pd_near numeric(4,1) NOT NULL DEFAULT 0 CHECK (pd_near BETWEEN 0 AND 90),
      measurements_complete boolean NOT NULL DEFAULT false,
      extras jsonb NOT NULL DEFAULT '{}'::jsonb CHECK (jsonb_typeof(extras) = 'object'),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX client_measurements_incomplete_idx
    ON client_measurements (client_id) WHERE NOT measurements_complete`.execute(db);

  await sql`
    CREATE TABLE consent_records (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
      consent_type text NOT NULL CHECK (consent_type IN ('SMS', 'EMAIL')),
      statement text NOT NULL,
      target text NOT NULL,
      consent_given boolean NOT NULL,
      ip text,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX consent_records_client_id_idx ON consent_records (client_id)`.execute(db);

  await sql`CREATE SEQUENCE quote_number_seq START 1001`.execute(db);
  await sql`
    CREATE TABLE quotes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      quote_number text NOT NULL UNIQUE
        DEFAULT ('Q-' || lpad(nextval('quote_number_seq')::text, 6, '0')),
      client_id uuid NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
      optician_name text NOT NULL DEFAULT '',
      status text NOT NULL DEFAULT 'DRAFT' CHECK (status IN (
        'DRAFT', 'ACTIVE', 'PENDING_MEASUREMENTS', 'FINALIZED', 'EMAILED', 'ACCEPTED', 'CLOSED')),
      internal_notes text NOT NULL DEFAULT '',
      footer_message text,
      expires_at timestamptz,
      closure_reason text,
      closed_at timestamptz,
      version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((status = 'CLOSED') = (closure_reason IS NOT NULL))
    )`.execute(db);
  await sql`CREATE INDEX quotes_client_id_idx ON quotes (client_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX quotes_created_at_idx ON quotes (created_at DESC)`.execute(db);
  await sql`CREATE INDEX quotes_status_idx ON quotes (status)`.execute(db);
  await sql`CREATE INDEX quotes_expires_at_idx ON quotes (expires_at) WHERE status <> 'CLOSED'`
    .execute(db);

  await sql`
    CREATE TABLE quote_options (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      quote_id uuid NOT NULL REFERENCES quotes (id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 0),
      label text NOT NULL DEFAULT '',
      notes text NOT NULL DEFAULT '',
      is_chosen boolean NOT NULL DEFAULT false,
      shipping numeric(12,2) NOT NULL DEFAULT 0 CHECK (shipping >= 0),
      adjustment_amount numeric(12,2) NOT NULL DEFAULT 0 CHECK (adjustment_amount <= 0),
      adjustment_reason text NOT NULL DEFAULT '',
      subtotal numeric(12,2) NOT NULL DEFAULT 0,
      UNIQUE (quote_id, position)
    )`.execute(db);

  await sql`
    CREATE TABLE option_items (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      option_id uuid NOT NULL REFERENCES quote_options (id) ON DELETE CASCADE,
      position integer NOT NULL CHECK (position >= 0),
      kind text NOT NULL CHECK (kind IN (
        'FRAME', 'PACKAGE', 'LENS', 'MATERIAL', 'AR', 'ADDON', 'OTHER')),
      name text NOT NULL DEFAULT '',
      sku text,
      unit_price numeric(12,2) NOT NULL DEFAULT 0 CHECK (unit_price >= 0),
      qty integer NOT NULL DEFAULT 1 CHECK (qty >= 1),
      notes text NOT NULL DEFAULT '',
      catalog_id uuid,
      UNIQUE (option_id, position)
    )`.execute(db);

  await sql`
    CREATE TABLE option_frame_measurements (
      option_id uuid PRIMARY KEY REFERENCES quote_options (id) ON DELETE CASCADE,
      seg_oc text NOT NULL DEFAULT '',
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);

  for (const table of catalogTables) {
    const description = table === "lens_packages"
      ? sql`description text NOT NULL DEFAULT '',`
      : sql``;
    await sql`
      CREATE TABLE ${sql.table(table)} (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (btrim(name) <> ''),
        ${description}
        price numeric(12,2) NOT NULL CHECK (price >= 0),
        active boolean NOT NULL DEFAULT true,
        sort_order integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`.execute(db);
    await sql`CREATE INDEX ${sql.raw(`${table}_active_sort_idx`)}
      ON ${sql.table(table)} (active, sort_order, name)`.execute(db);
  }

  // One row of store-wide settings; NULL means "use the built-in fallback".
  await sql`
    CREATE TABLE settings (
      id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      store_name text,
      store_phone text,
      store_email text,
      store_address text,
      store_website text,
      logo_url text,
      favicon_url text,
      footer_message text,
      quote_expiration_enabled boolean NOT NULL DEFAULT true,
      quote_expiration_days integer NOT NULL DEFAULT 30
        CHECK (quote_expiration_days BETWEEN 1 AND 365),
      sms_consent_text text,
      email_consent_text text,
      email_subject text,
      email_body text,
      smtp_host text,
      smtp_port integer NOT NULL DEFAULT 587 CHECK (smtp_port BETWEEN 1 AND 65535),
      smtp_user text,
      smtp_pass_enc text,
      smtp_from_email text,
      smtp_from_name text,
      smtp_verified_at timestamptz,
      smtp_last_error text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`INSERT INTO settings (id) VALUES (1)`.execute(db);

  await sql`
    CREATE TABLE uploaded_files (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      upload_token_hash text NOT NULL UNIQUE,
      purpose text NOT NULL,
      max_bytes integer NOT NULL CHECK (max_bytes > 0),
      expires_at timestamptz NOT NULL,
      content_type text,
      byte_size integer CHECK (byte_size >= 0),
      data bytea,
      created_by uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`.execute(db);

  await sql`
    CREATE TABLE audit_log (
      id bigserial PRIMARY KEY,
      at timestamptz NOT NULL DEFAULT now(),
      user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      actor text NOT NULL,
      action text NOT NULL,
      entity_type text NOT NULL,
      entity_id text,
      details jsonb NOT NULL DEFAULT '{}'::jsonb
    )`.execute(db);
  await sql`CREATE INDEX audit_log_at_idx ON audit_log (at DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_entity_idx ON audit_log (entity_type, entity_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (
    const table of [
      "audit_log",
      "uploaded_files",
      "settings",
      ...catalogTables,
      "option_frame_measurements",
      "option_items",
      "quote_options",
      "quotes",
      "consent_records",
      "client_measurements",
      "clients",
      "heard_how_options",
      "password_reset_tokens",
      "sessions",
      "users",
    ]
  ) {
    await sql`DROP TABLE IF EXISTS ${sql.table(table)}`.execute(db);
  }
  await sql`DROP SEQUENCE IF EXISTS quote_number_seq`.execute(db);
}
