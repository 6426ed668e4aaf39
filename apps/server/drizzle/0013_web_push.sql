CREATE TABLE "web_push_keys" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "web_push_keys_one_row" CHECK ("web_push_keys"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "push_sent_seq" bigint;