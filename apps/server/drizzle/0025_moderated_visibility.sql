CREATE INDEX "posts_moderated_idx" ON "posts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "posts"."deleted_at" is null and ("posts"."moderation" is not null or "posts"."author_suspended");--> statement-breakpoint
-- Issue 27: a post that moderation hides (pending review, removed) or whose author is suspended leaves
-- the explore map, and comes back when that is cleared. The map's layer reads these columns
-- (explore.repository.ts › ON_MAP); the change log (0002, 0008) must hear of them so that every
-- process's map index drops or re-adds the point.
DROP TRIGGER "posts_explore_update" ON "posts";--> statement-breakpoint
CREATE TRIGGER posts_explore_update AFTER UPDATE OF show_location, latitude, longitude, media_key, created_at, user_id, deleted_at, moderation, author_suspended ON posts
  FOR EACH ROW
  WHEN (OLD.show_location IS DISTINCT FROM NEW.show_location
    OR OLD.latitude IS DISTINCT FROM NEW.latitude
    OR OLD.longitude IS DISTINCT FROM NEW.longitude
    OR OLD.media_key IS DISTINCT FROM NEW.media_key
    OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.moderation IS DISTINCT FROM NEW.moderation
    OR OLD.author_suspended IS DISTINCT FROM NEW.author_suspended)
  EXECUTE FUNCTION explore_log_updated_post();
