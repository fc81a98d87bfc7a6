-- Lists are ordered newest first by created_at, ties by seq (ADR 0023): with several nodes writing, a row stamped
-- earlier can be inserted later, and a list must agree with the timestamps it shows. These indexes serve that order
-- and replace the ones by seq alone, whose prefixes they keep.
CREATE INDEX streams_listed ON streams (account_id, created_at, seq);
DROP INDEX IF EXISTS streams_by_account;
CREATE INDEX reports_listed ON reports (account_id, created_at, seq);
DROP INDEX IF EXISTS reports_by_account;
CREATE INDEX records_listed ON records (account_id, report_id, created_at, seq);
DROP INDEX IF EXISTS records_by_report;
CREATE INDEX webhooks_listed ON webhooks (account_id, created_at, seq);
DROP INDEX IF EXISTS webhooks_by_account;
CREATE INDEX deliveries_listed ON deliveries (account_id, webhook_id, created_at, seq);
DROP INDEX IF EXISTS deliveries_by_webhook;
