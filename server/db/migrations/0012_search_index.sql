-- Issue 22 #3: chat search indexes bounded chunks, not one growing document per session. Each
-- session's `search_text` was rewritten and re-indexed whole on every message (8.5 s a send at 1,000
-- messages). Now chunk 0 holds the lower-cased title (a rename rewrites only it) and chunks 1… hold
-- chr(1) || lower(content) of each message in order, a message joining the last chunk while it stays
-- under 8,000 characters, else starting the next: a write touches one small chunk. Existing sessions
-- are chunked by each message's start offset; then the old document and its indexes go.
CREATE TABLE "chat_search_chunks" (
	"session_id" uuid NOT NULL REFERENCES "chat_sessions"("id") ON DELETE cascade,
	"seq" integer NOT NULL,
	"text" text NOT NULL,
	"chars" text[] GENERATED ALWAYS AS (ayah_distinct_chars("text")) STORED NOT NULL,
	CONSTRAINT "chat_search_chunks_pk" PRIMARY KEY ("session_id", "seq")
);
--> statement-breakpoint
INSERT INTO "chat_search_chunks" ("session_id", "seq", "text")
SELECT "id", 0, lower("title") FROM "chat_sessions";
--> statement-breakpoint
INSERT INTO "chat_search_chunks" ("session_id", "seq", "text")
SELECT "session_id", 1 + "start" / 8000, string_agg("piece", '' ORDER BY "created_at", "id")
FROM (
	SELECT "session_id", "created_at", "id", chr(1) || lower("content") AS "piece",
		(sum(length(chr(1) || lower("content"))) OVER (PARTITION BY "session_id" ORDER BY "created_at", "id")
			- length(chr(1) || lower("content")))::bigint AS "start"
	FROM "chat_messages"
) AS "pieces"
GROUP BY "session_id", 1 + "start" / 8000;
--> statement-breakpoint
CREATE INDEX "chat_search_chunks_trgm_idx" ON "chat_search_chunks" USING gin ("text" gin_trgm_ops) WITH (fastupdate=false);
--> statement-breakpoint
CREATE INDEX "chat_search_chunks_chars_idx" ON "chat_search_chunks" USING gin ("chars") WITH (fastupdate=false);
--> statement-breakpoint
DROP INDEX "chat_sessions_search_trgm_idx";
--> statement-breakpoint
DROP INDEX "chat_sessions_search_chars_idx";
--> statement-breakpoint
ALTER TABLE "chat_sessions" DROP COLUMN "search_chars";
--> statement-breakpoint
ALTER TABLE "chat_sessions" DROP COLUMN "search_text";
