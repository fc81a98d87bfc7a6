-- A report's feed holds its newest published records by publication, ties by seq (ADR 0023): records are published in
-- another order than they were created (and with several nodes even created out of their requests' order), so the
-- window by seq alone could keep the first record published and drop the last. This index serves the new order and
-- replaces the one by seq, whose prefix it keeps.
CREATE INDEX records_published_window ON records (account_id, report_id, published_at, seq) WHERE status = 'published';
DROP INDEX IF EXISTS records_published_by_report;
