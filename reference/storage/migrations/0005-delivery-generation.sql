-- A replay (requeue) starts a new generation of a delivery. An attempt claimed before the replay carries the old
-- generation, and its outcome is not applied over the replay (the embedded store's claims have no lease to tell
-- the two apart; ADR 0018).
ALTER TABLE deliveries ADD COLUMN generation integer NOT NULL DEFAULT 0;
