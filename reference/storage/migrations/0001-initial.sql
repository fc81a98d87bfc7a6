-- The reference service's tables. One dialect for PGlite and PostgreSQL.
-- `seq` orders every list (newest first) independently of timestamps, which follow a scaled clock.
-- Owned tables are unique on (account_id, id) too, so children can reference a parent of the same account.

CREATE TABLE accounts (
  seq bigserial NOT NULL UNIQUE,
  id text PRIMARY KEY,
  plan text NOT NULL,
  default_region text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE api_keys (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  kind text NOT NULL,
  hash text NOT NULL UNIQUE,
  status text NOT NULL CHECK (status IN ('active', 'revoked')),
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX api_keys_by_account ON api_keys (account_id, seq);

CREATE TABLE streams (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  title text NOT NULL,
  status text NOT NULL,
  quality text NOT NULL,
  format text NOT NULL,
  region text NOT NULL,
  stream_key_hash text NOT NULL,
  subscriber_count integer NOT NULL,
  metadata jsonb NOT NULL,
  started_at timestamptz,
  -- No foreign key: a stream keeps pointing at a report that was deleted meanwhile.
  recording_report_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX streams_by_account ON streams (account_id, seq);

CREATE TABLE reports (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  title text NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (account_id, id)
);
CREATE INDEX reports_by_account ON reports (account_id, seq);

CREATE TABLE records (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL,
  report_id text NOT NULL,
  status text NOT NULL,
  source text NOT NULL,
  stream_id text,
  title text,
  samples jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  published_at timestamptz,
  FOREIGN KEY (account_id, report_id) REFERENCES reports (account_id, id) ON DELETE CASCADE
);
CREATE INDEX records_by_report ON records (account_id, report_id, seq);

CREATE TABLE webhooks (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  url text NOT NULL,
  events jsonb NOT NULL,
  description text,
  signing_secret text NOT NULL,
  status text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (account_id, id)
);
CREATE INDEX webhooks_by_account ON webhooks (account_id, seq);

CREATE TABLE events (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  type text NOT NULL,
  created bigint NOT NULL,
  livemode boolean NOT NULL,
  data jsonb NOT NULL
);

CREATE TABLE deliveries (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL,
  webhook_id text NOT NULL,
  event_id text NOT NULL REFERENCES events (id),
  event_type text NOT NULL,
  status text NOT NULL,
  attempts jsonb NOT NULL,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  FOREIGN KEY (account_id, webhook_id) REFERENCES webhooks (account_id, id) ON DELETE CASCADE
);
CREATE INDEX deliveries_by_webhook ON deliveries (account_id, webhook_id, seq);
CREATE INDEX deliveries_by_account ON deliveries (account_id, seq);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at, seq) WHERE status = 'pending';

CREATE TABLE oauth_clients (
  seq bigserial NOT NULL,
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  secret_hash text NOT NULL,
  redirect_uris jsonb NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE authorization_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (id),
  account_id text NOT NULL REFERENCES accounts (id),
  redirect_uri text NOT NULL,
  scope text NOT NULL,
  code_challenge text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE refresh_tokens (
  token_hash text PRIMARY KEY,
  family_id text NOT NULL,
  client_id text NOT NULL REFERENCES oauth_clients (id),
  account_id text NOT NULL REFERENCES accounts (id),
  scope text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_by_family ON refresh_tokens (family_id);
