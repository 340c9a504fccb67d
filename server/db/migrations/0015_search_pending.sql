-- A send's question waits here for its reply before it joins the session's search chunks (issue 26:
-- re-indexing a chunk took about a fifth of PGlite's one thread before the model was called, and a
-- class's burst of sends waited for it). The finished reply moves the question and itself into the
-- chunks in one write (server/chat/service.ts `storeReply`); until then, and for a question whose
-- reply failed, search reads the text here. The index finds a student's sessions that have some.
ALTER TABLE "chat_sessions" ADD COLUMN "search_pending" text;
--> statement-breakpoint
CREATE INDEX "chat_sessions_search_pending_idx" ON "chat_sessions" USING btree ("user_id") WHERE "search_pending" is not null;
