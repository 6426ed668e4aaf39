CREATE TABLE "appeals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"action_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decider_id" uuid,
	"outcome" text,
	CONSTRAINT "appeals_body_length" CHECK (char_length("appeals"."body") between 1 and 2000),
	CONSTRAINT "appeals_outcome" CHECK ("appeals"."outcome" is null or "appeals"."outcome" in ('upheld', 'overturned')),
	CONSTRAINT "appeals_decided" CHECK (("appeals"."decided_at" is null) = ("appeals"."outcome" is null))
);
--> statement-breakpoint
CREATE TABLE "moderation_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid,
	"moderator_id" uuid NOT NULL,
	"moderator_name" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"target_user_id" uuid,
	"action" text NOT NULL,
	"rule" text,
	"explanation" text DEFAULT '' NOT NULL,
	"suspend_days" integer,
	"reverts_action_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_actions_action" CHECK ("moderation_actions"."action" in ('dismiss', 'remove', 'strip_location', 'warn', 'suspend', 'restore')),
	CONSTRAINT "moderation_actions_target_type" CHECK ("moderation_actions"."target_type" in ('post', 'comment', 'user', 'cat')),
	CONSTRAINT "moderation_actions_rule" CHECK ("moderation_actions"."rule" is null or "moderation_actions"."rule" in ('spam', 'harassment', 'off_topic', 'private_information', 'animal_cruelty', 'other')),
	CONSTRAINT "moderation_actions_explanation_length" CHECK (char_length("moderation_actions"."explanation") <= 1000),
	CONSTRAINT "moderation_actions_suspend_days" CHECK ("moderation_actions"."suspend_days" is null or ("moderation_actions"."action" = 'suspend' and "moderation_actions"."suspend_days" > 0))
);
--> statement-breakpoint
CREATE TABLE "moderation_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_notes_target_type" CHECK ("moderation_notes"."target_type" in ('post', 'comment', 'user', 'cat')),
	CONSTRAINT "moderation_notes_body_length" CHECK (char_length("moderation_notes"."body") between 1 and 2000)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reporter_id" uuid NOT NULL,
	"target_type" text NOT NULL,
	"target_id" uuid NOT NULL,
	"target_user_id" uuid,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "reports_target_type" CHECK ("reports"."target_type" in ('post', 'comment', 'user', 'cat')),
	CONSTRAINT "reports_reason" CHECK ("reports"."reason" in ('spam', 'harassment', 'off_topic', 'private_information', 'animal_cruelty', 'other')),
	CONSTRAINT "reports_note_length" CHECK (char_length("reports"."note") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "moderation" text;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "author_suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "moderation" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "author_suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "cats" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_action_id_moderation_actions_id_fk" FOREIGN KEY ("action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appeals" ADD CONSTRAINT "appeals_decider_id_users_id_fk" FOREIGN KEY ("decider_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_notes" ADD CONSTRAINT "moderation_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appeals_action_idx" ON "appeals" USING btree ("action_id");--> statement-breakpoint
CREATE INDEX "appeals_open_idx" ON "appeals" USING btree ("created_at") WHERE "appeals"."decided_at" is null;--> statement-breakpoint
CREATE INDEX "appeals_user_idx" ON "appeals" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "moderation_actions_created_idx" ON "moderation_actions" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "moderation_actions_target_user_idx" ON "moderation_actions" USING btree ("target_user_id","created_at");--> statement-breakpoint
CREATE INDEX "moderation_actions_target_idx" ON "moderation_actions" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "moderation_actions_report_idx" ON "moderation_actions" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "moderation_notes_target_idx" ON "moderation_notes" USING btree ("target_type","target_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_reporter_target_idx" ON "reports" USING btree ("reporter_id","target_type","target_id");--> statement-breakpoint
CREATE INDEX "reports_open_target_idx" ON "reports" USING btree ("target_type","target_id","created_at") WHERE "reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "reports_open_created_idx" ON "reports" USING btree ("created_at") WHERE "reports"."resolved_at" is null;--> statement-breakpoint
CREATE INDEX "reports_reporter_updated_idx" ON "reports" USING btree ("reporter_id","updated_at");--> statement-breakpoint
CREATE INDEX "reports_target_user_idx" ON "reports" USING btree ("target_user_id");--> statement-breakpoint
CREATE INDEX "users_suspended_until_idx" ON "users" USING btree ("suspended_until") WHERE "users"."suspended_until" is not null;--> statement-breakpoint
CREATE INDEX "users_staff_idx" ON "users" USING btree ("role") WHERE "users"."role" <> 'member';--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_role" CHECK ("users"."role" in ('member', 'moderator', 'admin'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_suspension" CHECK ("users"."suspended_until" is null or "users"."suspended_at" is not null);--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_moderation" CHECK ("comments"."moderation" is null or "comments"."moderation" in ('pending_review', 'removed'));--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_moderation" CHECK ("posts"."moderation" is null or "posts"."moderation" in ('pending_review', 'removed'));--> statement-breakpoint
-- The audit log is appended to and never edited or deleted (issue 27, "Moderators"), whoever asks.
CREATE FUNCTION moderation_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'moderation_actions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER moderation_actions_append_only BEFORE UPDATE OR DELETE ON moderation_actions
  FOR EACH ROW EXECUTE FUNCTION moderation_actions_append_only();
--> statement-breakpoint
CREATE TRIGGER moderation_actions_no_truncate BEFORE TRUNCATE ON moderation_actions
  FOR EACH STATEMENT EXECUTE FUNCTION moderation_actions_append_only();
