-- The explore map's change log (see src/db/schema/explore.ts): one row per post that enters, leaves or
-- moves on the public map. Inserts and deletes are logged once per statement (bulk seeds stay fast).
CREATE FUNCTION explore_log_inserted_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO map_changes (post_id)
    SELECT id FROM explore_new_posts WHERE show_location AND latitude IS NOT NULL AND longitude IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION explore_log_deleted_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO map_changes (post_id)
    SELECT id FROM explore_old_posts WHERE show_location AND latitude IS NOT NULL AND longitude IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION explore_log_updated_post() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO map_changes (post_id) VALUES (NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Choosing exact or approximate public locations moves every shown post of that user.
CREATE FUNCTION explore_log_location_precision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO map_changes (post_id)
    SELECT id FROM posts
    WHERE user_id = NEW.id AND show_location AND latitude IS NOT NULL AND longitude IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER posts_explore_insert AFTER INSERT ON posts
  REFERENCING NEW TABLE AS explore_new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION explore_log_inserted_posts();
--> statement-breakpoint
CREATE TRIGGER posts_explore_delete AFTER DELETE ON posts
  REFERENCING OLD TABLE AS explore_old_posts
  FOR EACH STATEMENT EXECUTE FUNCTION explore_log_deleted_posts();
--> statement-breakpoint
CREATE TRIGGER posts_explore_update AFTER UPDATE OF show_location, latitude, longitude, media_key, created_at, user_id ON posts
  FOR EACH ROW
  WHEN (OLD.show_location IS DISTINCT FROM NEW.show_location
    OR OLD.latitude IS DISTINCT FROM NEW.latitude
    OR OLD.longitude IS DISTINCT FROM NEW.longitude
    OR OLD.media_key IS DISTINCT FROM NEW.media_key
    OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION explore_log_updated_post();
--> statement-breakpoint
CREATE TRIGGER users_explore_location_precision AFTER UPDATE OF exact_public_location ON users
  FOR EACH ROW
  WHEN (OLD.exact_public_location IS DISTINCT FROM NEW.exact_public_location)
  EXECUTE FUNCTION explore_log_location_precision();
