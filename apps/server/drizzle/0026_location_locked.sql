ALTER TABLE "posts" ADD COLUMN "location_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_location_locked" CHECK (not ("posts"."location_locked" and "posts"."show_location"));--> statement-breakpoint
-- Posts whose location a moderator hid before this column existed, and that no restore has undone.
UPDATE "posts" p SET "location_locked" = true, "show_location" = false
WHERE EXISTS (
  SELECT 1 FROM "moderation_actions" a
  WHERE a."target_type" = 'post' AND a."target_id" = p."id" AND a."action" = 'strip_location'
    AND NOT EXISTS (SELECT 1 FROM "moderation_actions" r WHERE r."reverts_action_id" = a."id")
);
