-- LTI 1.3 (issue 23): platforms from Dynamic Registration, logins in flight, launched users, courses
-- with their roster claim, one-time hand-offs to the launched page, grade links and the score outbox.
CREATE TABLE "lti_platforms" (
	"id" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"deployment_ids" jsonb NOT NULL,
	"auth_login_url" text NOT NULL,
	"auth_token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"auth_audience" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_issuer_client_idx" ON "lti_platforms" USING btree ("issuer","client_id");
--> statement-breakpoint
CREATE TABLE "lti_login_states" (
	"state" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"platform_id" text NOT NULL,
	"storage" text NOT NULL,
	"used_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lti_login_states_expires_idx" ON "lti_login_states" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "lti_users" (
	"platform_id" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_users_platform_id_subject_pk" PRIMARY KEY("platform_id","subject")
);
--> statement-breakpoint
CREATE INDEX "lti_users_user_idx" ON "lti_users" USING btree ("user_id");
--> statement-breakpoint
CREATE TABLE "lti_contexts" (
	"key" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"title" text,
	"nrps" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_memberships" (
	"context_key" text NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"role" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_memberships_context_key_user_id_pk" PRIMARY KEY("context_key","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_handoffs" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lti_handoffs_expires_idx" ON "lti_handoffs" USING btree ("expires_at");
--> statement-breakpoint
CREATE TABLE "lti_grade_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "public"."users"("id") ON DELETE cascade,
	"platform_id" text NOT NULL,
	"subject" text NOT NULL,
	"resource_link_id" text NOT NULL,
	"line_item" text,
	"line_items" text,
	"scopes" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "lti_grade_links_user_link_idx" ON "lti_grade_links" USING btree ("user_id","platform_id","resource_link_id");
--> statement-breakpoint
CREATE TABLE "lti_score_outbox" (
	"grade_link_id" uuid PRIMARY KEY NOT NULL REFERENCES "public"."lti_grade_links"("id") ON DELETE cascade,
	"score" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "lti_score_outbox_due_idx" ON "lti_score_outbox" USING btree ("next_attempt_at");
