-- Webhook delivery (ADR 0012). A delivery being sent carries a lease (`claimed_until`, on the service clock) and the
-- token of the dispatcher holding it, so several nodes claim due deliveries without sending one twice, and a node
-- that dies loses its leases when they run out. `retry_base` is the number of attempts made before the current
-- schedule began (a replay starts the schedule again).
ALTER TABLE deliveries ADD COLUMN claimed_until timestamptz;
ALTER TABLE deliveries ADD COLUMN claim_token text;
ALTER TABLE deliveries ADD COLUMN retry_base integer NOT NULL DEFAULT 0;

-- A rolled secret keeps signing, beside the new one, until it expires.
ALTER TABLE webhooks ADD COLUMN previous_signing_secret text;
ALTER TABLE webhooks ADD COLUMN previous_secret_expires_at timestamptz;

-- The service clock's anchor: scaled time = anchor_scaled_ms + (wall time - anchor_wall_ms) * scale. Stored so that
-- the clock keeps running across restarts instead of starting again at every start. One row.
CREATE TABLE service_clock (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  anchor_wall_ms bigint NOT NULL,
  anchor_scaled_ms bigint NOT NULL,
  scale double precision NOT NULL
);
