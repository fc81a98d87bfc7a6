-- Public OAuth clients (issue 12, item 4): a client that cannot keep a secret is registered without one and must
-- use PKCE (RFC 9700 section 2.1.1).
ALTER TABLE oauth_clients ALTER COLUMN secret_hash DROP NOT NULL;
