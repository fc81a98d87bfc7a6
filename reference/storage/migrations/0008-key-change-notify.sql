-- Key and account changes told to every listening process (ADR 0022, wave 9): a node caching API keys on PostgreSQL
-- drops what a change made stale, whichever process wrote it (another node, `npm run keys`, psql). The trigger runs in
-- the writing transaction, so the notification is sent at its commit and never for a rollback.
CREATE FUNCTION notify_key_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    -- TRUNCATE: no rows to name; every cached key and account is dropped.
    PERFORM pg_notify('telemetry_key_changes', '{"all":true}');
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'accounts' THEN
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('telemetry_key_changes', json_build_object('accountId', OLD.id)::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('telemetry_key_changes', json_build_object('accountId', NEW.id)::text);
    END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('telemetry_key_changes',
        json_build_object('apiKeyId', OLD.id, 'apiKeyHash', OLD.hash)::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('telemetry_key_changes',
        json_build_object('apiKeyId', NEW.id, 'apiKeyHash', NEW.hash)::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_key_change();
CREATE TRIGGER api_keys_truncated AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_key_change();
CREATE TRIGGER accounts_changed AFTER INSERT OR UPDATE OR DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION notify_key_change();
CREATE TRIGGER accounts_truncated AFTER TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION notify_key_change();
