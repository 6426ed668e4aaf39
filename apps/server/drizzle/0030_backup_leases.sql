CREATE TABLE "backup_leases" (
	"id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deferred_media_deletions" (
	"target" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"deferred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deferred_media_deletions_kind" CHECK ("deferred_media_deletions"."kind" in ('prefix', 'key'))
);
