CREATE TABLE "post_versions" (
	"post_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"caption" text NOT NULL,
	"cat_name" text,
	"alt_text" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "post_versions_post_id_version_pk" PRIMARY KEY("post_id","version"),
	CONSTRAINT "post_versions_version_positive" CHECK ("post_versions"."version" > 0)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "alt_text_reminder" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "alt_text" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "edited_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "post_versions" ADD CONSTRAINT "post_versions_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_alt_text_length" CHECK ("posts"."alt_text" is null or char_length("posts"."alt_text") <= 1500);