-- A student keeps at most so many learning memories; when they are full, the tutor's memory of a
-- reply takes the place of the tutor's oldest (memory/service.ts `remember`). Which memories are the
-- tutor's is the server's to say, not the metadata any client may write: `by_tutor`. The rows the
-- tutor stored until now say `{"source": "chat"}` in their metadata.
ALTER TABLE "learning_memories" ADD COLUMN "by_tutor" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
UPDATE "learning_memories" SET "by_tutor" = true WHERE "metadata"->>'source' = 'chat';
