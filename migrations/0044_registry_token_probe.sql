-- A name search asks of each candidate record which of the query's common words it holds (issue 14): with the
-- word in the index, that probe is answered from the index alone. The (source, ref) index it replaces served
-- the same deletes and lookups by record.
CREATE INDEX registry_name_tokens_entity_token ON registry_name_tokens (source, ref, token);
DROP INDEX registry_name_tokens_entity;
