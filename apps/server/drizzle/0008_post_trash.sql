DROP INDEX "posts_feed_idx";--> statement-breakpoint
DROP INDEX "posts_user_feed_idx";--> statement-breakpoint
DROP INDEX "posts_map_idx";--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "posts_user_trash_idx" ON "posts" USING btree ("user_id","deleted_at" DESC NULLS LAST) WHERE "posts"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "posts_trash_purge_idx" ON "posts" USING btree ("deleted_at") WHERE "posts"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "posts_feed_idx" ON "posts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST,"user_id") WHERE "posts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "posts_user_feed_idx" ON "posts" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "posts_map_idx" ON "posts" USING btree ("latitude","longitude") WHERE "posts"."show_location" and "posts"."latitude" is not null and "posts"."longitude" is not null and "posts"."deleted_at" is null;--> statement-breakpoint
-- Trashing or restoring a post moves it off or back onto the explore map: the change log (0002) must
-- hear of it, so that every process's map index drops or re-adds the point.
DROP TRIGGER "posts_explore_update" ON "posts";--> statement-breakpoint
CREATE TRIGGER posts_explore_update AFTER UPDATE OF show_location, latitude, longitude, media_key, created_at, user_id, deleted_at ON posts
  FOR EACH ROW
  WHEN (OLD.show_location IS DISTINCT FROM NEW.show_location
    OR OLD.latitude IS DISTINCT FROM NEW.latitude
    OR OLD.longitude IS DISTINCT FROM NEW.longitude
    OR OLD.media_key IS DISTINCT FROM NEW.media_key
    OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION explore_log_updated_post();
