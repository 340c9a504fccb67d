-- Chat search matches one document per session instead of every message: `search_text` is the
-- lower-cased title, then chr(1) and each lower-cased message (kept by the chat service), under a
-- trigram index; `search_chars`, its distinct characters, serves needles too short for a trigram.
-- Existing sessions are filled in before the indexes are built; the per-message and per-title
-- trigram indexes go.
DROP INDEX "chat_messages_content_trgm_idx";--> statement-breakpoint
DROP INDEX "chat_sessions_title_trgm_idx";--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "chat_sessions" SET "search_text" = lower("title") || coalesce((
  SELECT string_agg(chr(1) || lower(m."content"), '' ORDER BY m."created_at", m."id")
  FROM "chat_messages" m WHERE m."session_id" = "chat_sessions"."id"
), '');--> statement-breakpoint
CREATE OR REPLACE FUNCTION ayah_distinct_chars(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT c), '{}') FROM unnest(string_to_array(t, NULL)) AS c
$$;--> statement-breakpoint
ALTER TABLE "chat_sessions" ADD COLUMN "search_chars" text[] GENERATED ALWAYS AS (ayah_distinct_chars("search_text")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "chat_sessions_search_trgm_idx" ON "chat_sessions" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);--> statement-breakpoint
CREATE INDEX "chat_sessions_search_chars_idx" ON "chat_sessions" USING gin ("search_chars") WITH (fastupdate=false);
