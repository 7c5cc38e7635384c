-- GLEIF Level 2 records that stop applying: a relationship or reporting exception that a delta file withdraws
-- (its deletion extension), or that a later full golden-copy file of its kind no longer carries, stops counting
-- for ownership from the batch that ended it. The row stays as history: batch_id is the batch that last wrote
-- it, ended_batch_id the batch that ended it, ended_on the day the source gave (or the file's publication date).
-- Stating the record again revives it (both cleared).
ALTER TABLE registry_relationships ADD COLUMN ended_batch_id text REFERENCES registry_import_batches (id);
ALTER TABLE registry_relationships ADD COLUMN ended_on text;
ALTER TABLE registry_exceptions ADD COLUMN ended_batch_id text REFERENCES registry_import_batches (id);
ALTER TABLE registry_exceptions ADD COLUMN ended_on text;
