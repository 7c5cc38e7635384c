-- API keys made through /v1/api-keys (issue #16): who made each one, so the listing and the audit agree.
-- Null for keys the CLI or the first start made (an operator at the shell, not a principal of the API).
ALTER TABLE api_keys ADD COLUMN created_by_type text;
ALTER TABLE api_keys ADD COLUMN created_by_id text;
