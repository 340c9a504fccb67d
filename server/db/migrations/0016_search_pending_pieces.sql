-- A session's messages wait in `search_pending` until the search filer adds them to its chunks
-- (server/chat/service.ts `fileSearchPending`), after a quiet spell of sends rather than in the
-- reply's statement (issue 26: filing a reply re-indexed its chunk in two GIN indexes, 2.6 ms of
-- PostgreSQL's CPU a reply, and on PGlite about two fifths of its thread, while a class's other
-- replies streamed). Several messages may now wait, each its own piece, in order: an array. The
-- question waiting alone before becomes a one-piece array.
ALTER TABLE "chat_sessions" ALTER COLUMN "search_pending" TYPE text[]
	USING CASE WHEN "search_pending" IS NULL THEN NULL ELSE ARRAY["search_pending"] END;
