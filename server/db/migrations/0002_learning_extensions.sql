-- Chat search (trigram indexes for case-insensitive substring search) needs pg_trgm, which PostgreSQL's
-- contrib and PGlite both ship. pgvector is optional: created when the database offers it; learning
-- memory falls back to an exact cosine scan in SQL (below) when it does not.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
    CREATE EXTENSION IF NOT EXISTS vector;
  END IF;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION ayah_cosine_similarity(a real[], b real[]) RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN coalesce(sum(x * x), 0) = 0 OR coalesce(sum(y * y), 0) = 0 THEN 0
              ELSE sum(x * y) / (sqrt(sum(x * x)) * sqrt(sum(y * y))) END
  FROM unnest(a, b) AS t(x, y)
$$;
