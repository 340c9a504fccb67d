CREATE TABLE "portal_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portal_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "portal_assertion_ids" (
	"issuer" text NOT NULL,
	"jti" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "portal_assertion_ids_issuer_jti_pk" PRIMARY KEY("issuer","jti")
);
--> statement-breakpoint
ALTER TABLE "portal_identities" ADD CONSTRAINT "portal_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "portal_identities_user_idx" ON "portal_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "portal_assertion_ids_expires_idx" ON "portal_assertion_ids" USING btree ("expires_at");
