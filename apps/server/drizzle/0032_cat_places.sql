CREATE TABLE "cat_places" (
	"cat_id" uuid PRIMARY KEY NOT NULL,
	"post_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"latitude" double precision NOT NULL,
	"longitude" double precision NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cat_places" ADD CONSTRAINT "cat_places_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cat_places_place_idx" ON "cat_places" USING btree ("latitude","longitude","cat_id");--> statement-breakpoint
CREATE INDEX "posts_user_cats_idx" ON "posts" USING btree ("user_id","cat_id") WHERE "posts"."cat_id" is not null and "posts"."deleted_at" is null;--> statement-breakpoint
-- cat_places (src/db/schema/cats.ts): each cat's newest sighting anyone may see, kept where it shows a
-- place to people other than its author. The rule in one function, for the triggers and the backfill:
-- live, neither moderated nor by a suspended author (visibility.ts › postShownToAll), not kept near a
-- household cat's home from a stranger (sighting_kept_from with no viewer: 0018), newest first in the
-- order every cat list uses (created_at, id).
CREATE FUNCTION cat_public_sighting(p_cat uuid)
  RETURNS TABLE (post_id uuid, user_id uuid, latitude double precision, longitude double precision, show_location boolean)
  LANGUAGE sql STABLE AS $$
  SELECT p.id, p.user_id, p.latitude, p.longitude, p.show_location
  FROM posts p
  WHERE p.cat_id = p_cat AND p.deleted_at IS NULL AND p.moderation IS NULL AND NOT p.author_suspended
    AND NOT sighting_kept_from(p.cat_id, p.user_id, p.latitude, p.longitude, NULL)
  ORDER BY p.created_at DESC, p.id DESC
  LIMIT 1
$$;
--> statement-breakpoint
-- One cat's row, read anew. Two transactions adding sightings of one cat at once would each read the
-- newest without the other's: the lock on the cat's row (until commit) makes the second wait, and its
-- read, a new statement, then sees the first's sighting (READ COMMITTED, as every writer here runs).
-- A row lock, not an advisory one: a statement may touch thousands of cats (an author suspended, a
-- seed), more than the shared lock table holds; FOR NO KEY UPDATE leaves the FOR KEY SHARE of links
-- and foreign keys (0020) unblocked.
CREATE FUNCTION cat_places_refresh(p_cat uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v record;
BEGIN
  IF p_cat IS NULL THEN RETURN; END IF;
  PERFORM 1 FROM cats WHERE id = p_cat FOR NO KEY UPDATE;
  SELECT s.post_id, s.user_id, s.latitude, s.longitude, s.show_location INTO v
    FROM cats c, cat_public_sighting(c.id) s
    WHERE c.id = p_cat;
  IF FOUND AND v.show_location AND v.latitude IS NOT NULL AND v.longitude IS NOT NULL THEN
    INSERT INTO cat_places (cat_id, post_id, user_id, latitude, longitude)
      VALUES (p_cat, v.post_id, v.user_id, v.latitude, v.longitude)
      ON CONFLICT (cat_id) DO UPDATE
        SET post_id = EXCLUDED.post_id, user_id = EXCLUDED.user_id, latitude = EXCLUDED.latitude, longitude = EXCLUDED.longitude;
  ELSE
    DELETE FROM cat_places WHERE cat_id = p_cat;
  END IF;
END $$;
--> statement-breakpoint
-- Inserts and deletes once per statement (a bulk seed refreshes each cat once), in cat order (two
-- statements never wait on each other's locks in opposite orders).
CREATE FUNCTION cat_places_posts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cat_places_refresh(n.cat_id)
    FROM (SELECT DISTINCT cat_id FROM cat_places_new_posts WHERE cat_id IS NOT NULL ORDER BY cat_id) n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_places_posts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cat_places_refresh(o.cat_id)
    FROM (SELECT DISTINCT cat_id FROM cat_places_old_posts WHERE cat_id IS NOT NULL ORDER BY cat_id) o;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_places_post_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cat_places_refresh(OLD.cat_id);
  IF NEW.cat_id IS DISTINCT FROM OLD.cat_id THEN
    PERFORM cat_places_refresh(NEW.cat_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_places_cat_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cat_places_refresh(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER posts_cat_places_insert AFTER INSERT ON posts
  REFERENCING NEW TABLE AS cat_places_new_posts
  FOR EACH STATEMENT EXECUTE FUNCTION cat_places_posts_inserted();
--> statement-breakpoint
CREATE TRIGGER posts_cat_places_delete AFTER DELETE ON posts
  REFERENCING OLD TABLE AS cat_places_old_posts
  FOR EACH STATEMENT EXECUTE FUNCTION cat_places_posts_deleted();
--> statement-breakpoint
-- Relinked, trashed or restored, moderated, its author suspended, moved, its location switched.
CREATE TRIGGER posts_cat_places_update
  AFTER UPDATE OF cat_id, deleted_at, moderation, author_suspended, latitude, longitude, show_location, created_at ON posts
  FOR EACH ROW
  WHEN ((OLD.cat_id IS NOT NULL OR NEW.cat_id IS NOT NULL) AND (
    OLD.cat_id IS DISTINCT FROM NEW.cat_id
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.moderation IS DISTINCT FROM NEW.moderation
    OR OLD.author_suspended IS DISTINCT FROM NEW.author_suspended
    OR OLD.latitude IS DISTINCT FROM NEW.latitude
    OR OLD.longitude IS DISTINCT FROM NEW.longitude
    OR OLD.show_location IS DISTINCT FROM NEW.show_location
    OR OLD.created_at IS DISTINCT FROM NEW.created_at))
  EXECUTE FUNCTION cat_places_post_updated();
--> statement-breakpoint
-- A household cat's home point decides which sightings a stranger may see.
CREATE TRIGGER cats_cat_places_home AFTER UPDATE OF living, home_latitude, home_longitude ON cats
  FOR EACH ROW
  WHEN (OLD.living IS DISTINCT FROM NEW.living
    OR OLD.home_latitude IS DISTINCT FROM NEW.home_latitude
    OR OLD.home_longitude IS DISTINCT FROM NEW.home_longitude)
  EXECUTE FUNCTION cat_places_cat_updated();
--> statement-breakpoint
-- The cats there are.
INSERT INTO cat_places (cat_id, post_id, user_id, latitude, longitude)
  SELECT c.id, s.post_id, s.user_id, s.latitude, s.longitude
  FROM cats c, cat_public_sighting(c.id) s
  WHERE s.show_location AND s.latitude IS NOT NULL AND s.longitude IS NOT NULL;
