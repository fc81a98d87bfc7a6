-- The public feed (issue 12, item 1; ADR 0014) shows each published record's sample count without reading its samples:
-- the count is kept beside them on every write, so a feed read touches a window of small rows, never the samples.
ALTER TABLE records ADD COLUMN sample_count integer GENERATED ALWAYS AS (jsonb_array_length(samples)) STORED;
CREATE INDEX records_published_by_report ON records (account_id, report_id, seq) WHERE status = 'published';
