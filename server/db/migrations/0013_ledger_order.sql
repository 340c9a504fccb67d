-- Two ledger rows of one user stamped in the same millisecond (an award and a conversion, or any two
-- rows under a frozen test clock) were ordered by their random id, so the activity list could show
-- them in either order. `seq` keeps the order they were written in, as the tie-break after
-- `created_at`; the user's index carries it so that the newest-first page is still an index scan.
ALTER TABLE "points_ledger" ADD COLUMN "seq" bigint GENERATED ALWAYS AS IDENTITY;
--> statement-breakpoint
DROP INDEX IF EXISTS "points_ledger_user_idx";
--> statement-breakpoint
CREATE INDEX "points_ledger_user_idx" ON "points_ledger" ("user_id", "created_at", "seq");
