-- Face search (1:N): enrolled face embeddings per tenant.
-- requires: vector
-- The embedding is always kept as real[] (the in-process index loads it where there is no pgvector);
-- where pgvector exists a vector(1024) copy with an HNSW index serves the search in SQL.
-- Deleting an enrolment erases its embedding (biometric data) and keeps the row for the audit trail.

CREATE TABLE face_enrollments (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  environment text NOT NULL,
  subject_reference text NOT NULL,
  -- Embeddings of different models are not comparable; searches only use the current model's.
  model text NOT NULL,
  embedding real[],
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX face_enrollments_tenant ON face_enrollments (account_id, environment, id);
CREATE INDEX face_enrollments_subject ON face_enrollments (account_id, environment, subject_reference);
-- max(deleted_at) per tenant: the in-process index cache's freshness stamp.
CREATE INDEX face_enrollments_deleted ON face_enrollments (account_id, environment, deleted_at);

-- vector:begin
CREATE EXTENSION IF NOT EXISTS vector;
ALTER TABLE face_enrollments ADD COLUMN embedding_vec vector(1024);
CREATE INDEX face_enrollments_hnsw ON face_enrollments USING hnsw (embedding_vec vector_cosine_ops);
-- vector:end
