-- A share names its post's author and depends on the author's membership (issue 23): the database
-- refuses a share by a non-member and drops a member's shares when they leave or are removed, so a
-- share racing a removal can no longer outlive it. Existing shares get their author from posts; any
-- share whose author is no longer a member (left over by such a race) is dropped.
CREATE UNIQUE INDEX "posts_id_user_idx" ON "posts" USING btree ("id","user_id");--> statement-breakpoint
ALTER TABLE "post_groups" ADD COLUMN "user_id" uuid;--> statement-breakpoint
UPDATE "post_groups" pg SET "user_id" = p."user_id" FROM "posts" p WHERE p."id" = pg."post_id";--> statement-breakpoint
DELETE FROM "post_groups" pg WHERE pg."user_id" IS NULL OR NOT EXISTS (
  SELECT 1 FROM "group_members" gm WHERE gm."group_id" = pg."group_id" AND gm."user_id" = pg."user_id"
);--> statement-breakpoint
ALTER TABLE "post_groups" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "post_groups" DROP CONSTRAINT "post_groups_post_id_posts_id_fk";--> statement-breakpoint
ALTER TABLE "post_groups" DROP CONSTRAINT "post_groups_group_id_groups_id_fk";--> statement-breakpoint
ALTER TABLE "post_groups" ADD CONSTRAINT "post_groups_post_author_fk" FOREIGN KEY ("post_id","user_id") REFERENCES "public"."posts"("id","user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "post_groups" ADD CONSTRAINT "post_groups_membership_fk" FOREIGN KEY ("group_id","user_id") REFERENCES "public"."group_members"("group_id","user_id") ON DELETE cascade ON UPDATE no action;
