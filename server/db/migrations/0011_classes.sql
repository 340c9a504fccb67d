-- Classes, the teacher's view and safety alerts (issue 24). A member's role comes only from an LTI
-- launch or a portal's assertion. An alert outlives its student's account (student_id set null); the
-- flagged text sits in safety_alert_messages, which goes with the account.
CREATE TABLE "classes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"external_key" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "classes_source_key" ON "classes" USING btree ("source","external_key");
--> statement-breakpoint
CREATE TABLE "class_members" (
	"class_id" uuid NOT NULL REFERENCES "classes"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_launch_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_members_class_id_user_id_pk" PRIMARY KEY("class_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "class_members_user_idx" ON "class_members" USING btree ("user_id","role");
--> statement-breakpoint
CREATE TABLE "safety_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"class_id" uuid NOT NULL REFERENCES "classes"("id") ON DELETE cascade,
	"student_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"session_id" uuid,
	"category" text NOT NULL,
	"categories" text[] NOT NULL,
	"severity" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"flags" integer DEFAULT 1 NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_flag_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "safety_alerts_class_idx" ON "safety_alerts" USING btree ("class_id","created_at");
--> statement-breakpoint
CREATE INDEX "safety_alerts_student_idx" ON "safety_alerts" USING btree ("student_id","last_flag_at");
--> statement-breakpoint
CREATE TABLE "safety_alert_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL REFERENCES "safety_alerts"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"message" text NOT NULL,
	"answer" text NOT NULL,
	"categories" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "safety_alert_messages_alert_idx" ON "safety_alert_messages" USING btree ("alert_id","created_at");
--> statement-breakpoint
CREATE TABLE "safety_alert_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL REFERENCES "safety_alerts"("id") ON DELETE cascade,
	"actor_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"actor_name" text NOT NULL,
	"action" text NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "safety_alert_events_alert_idx" ON "safety_alert_events" USING btree ("alert_id","created_at");
--> statement-breakpoint
CREATE INDEX "safety_alert_events_actor_idx" ON "safety_alert_events" USING btree ("actor_id","action");
--> statement-breakpoint
CREATE TABLE "safety_alert_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"alert_id" uuid NOT NULL REFERENCES "safety_alerts"("id") ON DELETE cascade,
	"recipient" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "safety_alert_deliveries_recipient" ON "safety_alert_deliveries" USING btree ("alert_id","recipient");
--> statement-breakpoint
CREATE INDEX "safety_alert_deliveries_due_idx" ON "safety_alert_deliveries" USING btree ("next_attempt_at");
