-- KYB: registry data imported offline (GLEIF, Companies House, BODS), shared by every tenant like the
-- sanctions lists, and the business records each tenant creates from it. Every registry row names the
-- import batch that last wrote it (provenance); a batch is written in one transaction, so a failed
-- import leaves the previous data as it was, and a file already imported (same source and hash) is
-- recognised and changes nothing.
CREATE TABLE registry_import_batches (
  id text PRIMARY KEY,
  source text NOT NULL,
  format text NOT NULL,
  file_name text NOT NULL,
  file_sha256 text NOT NULL,
  publish_date text,
  state text NOT NULL CHECK (state IN ('completed', 'failed')),
  counts jsonb NOT NULL DEFAULT '{}'::jsonb,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX registry_import_batches_file ON registry_import_batches (source, format, file_sha256) WHERE state = 'completed';

CREATE TABLE registry_entities (
  source text NOT NULL,
  ref text NOT NULL,
  batch_id text NOT NULL REFERENCES registry_import_batches (id),
  name text NOT NULL,
  lei text,
  registration_number text,
  country text,
  status text,
  data jsonb NOT NULL,
  PRIMARY KEY (source, ref)
);
CREATE INDEX registry_entities_lei ON registry_entities (lei) WHERE lei IS NOT NULL;
CREATE INDEX registry_entities_number ON registry_entities (registration_number) WHERE registration_number IS NOT NULL;
CREATE INDEX registry_entities_ref ON registry_entities (ref);

-- Normalised name words (the screening engine's normalisation) for candidate lookup; scored in the app.
CREATE TABLE registry_name_tokens (
  token text NOT NULL,
  source text NOT NULL,
  ref text NOT NULL
);
CREATE INDEX registry_name_tokens_token ON registry_name_tokens (token, source, ref);
CREATE INDEX registry_name_tokens_entity ON registry_name_tokens (source, ref);

CREATE TABLE registry_persons (
  source text NOT NULL,
  ref text NOT NULL,
  batch_id text NOT NULL REFERENCES registry_import_batches (id),
  name text NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (source, ref)
);

CREATE TABLE registry_relationships (
  source text NOT NULL,
  ref text NOT NULL,
  batch_id text NOT NULL REFERENCES registry_import_batches (id),
  subject_ref text NOT NULL,
  interested_ref text,
  data jsonb NOT NULL,
  PRIMARY KEY (source, ref)
);
CREATE INDEX registry_relationships_subject ON registry_relationships (source, subject_ref);
CREATE INDEX registry_relationships_party ON registry_relationships (source, interested_ref) WHERE interested_ref IS NOT NULL;

CREATE TABLE registry_exceptions (
  source text NOT NULL,
  ref text NOT NULL,
  batch_id text NOT NULL REFERENCES registry_import_batches (id),
  subject_ref text NOT NULL,
  data jsonb NOT NULL,
  PRIMARY KEY (source, ref)
);
CREATE INDEX registry_exceptions_subject ON registry_exceptions (source, subject_ref);

CREATE TABLE businesses (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  reference text,
  source text NOT NULL,
  source_ref text NOT NULL,
  name text NOT NULL,
  -- Manual data, or the registry data as it was when the record was created or last refreshed.
  data jsonb NOT NULL,
  ownership_hash text,
  screening jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX businesses_tenant ON businesses (account_id, environment, id);
CREATE UNIQUE INDEX businesses_source_ref ON businesses (account_id, environment, source, source_ref) WHERE source <> 'manual';
CREATE INDEX businesses_reference ON businesses (account_id, environment, reference) WHERE reference IS NOT NULL;

CREATE TABLE business_documents (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  business_id text NOT NULL REFERENCES businesses (id),
  status text NOT NULL,
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX business_documents_business ON business_documents (account_id, environment, business_id, id);
