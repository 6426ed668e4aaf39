CREATE TABLE "cat_list_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"cat_id" uuid,
	"xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "cat_list_changes_xid_idx" ON "cat_list_changes" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "cat_list_changes_changed_at_idx" ON "cat_list_changes" USING btree ("changed_at");--> statement-breakpoint
-- What the near list's caches (cats-near-store.ts) hold depends on: cat_places (each cat's place for
-- strangers), the cat itself, its sightings and cover (posts), its caretakers, its alerts, the authors'
-- exact-location setting; and, per viewer, hides, blocks and groups. Each change of those logs a row:
-- with the cat where one is concerned, without for a viewer's exceptions alone. Inserts and deletes are
-- logged once per statement (bulk seeds stay fast), updates per row of the columns that matter.
CREATE FUNCTION cat_list_log_new_cats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) SELECT DISTINCT cat_id FROM cat_list_new WHERE cat_id IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_list_log_old_cats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) SELECT DISTINCT cat_id FROM cat_list_old WHERE cat_id IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_list_log_both_cats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id)
    SELECT cat_id FROM cat_list_old WHERE cat_id IS NOT NULL
    UNION SELECT cat_id FROM cat_list_new WHERE cat_id IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_list_log_row_cats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.cat_id IS NOT NULL THEN
    INSERT INTO cat_list_changes (cat_id) VALUES (OLD.cat_id);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.cat_id IS NOT NULL
    AND (TG_OP = 'INSERT' OR NEW.cat_id IS DISTINCT FROM OLD.cat_id) THEN
    INSERT INTO cat_list_changes (cat_id) VALUES (NEW.cat_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_list_log_cat_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) VALUES (OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_list_log_deleted_cats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) SELECT id FROM cat_list_old;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A hide, a block or a group changes some viewers' exceptions only: one row without a cat, when the
-- statement changed a row (unhiding what was not hidden changes nothing).
CREATE FUNCTION cat_list_log_new_viewers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) SELECT NULL WHERE EXISTS (SELECT 1 FROM cat_list_new);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION cat_list_log_old_viewers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) SELECT NULL WHERE EXISTS (SELECT 1 FROM cat_list_old);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An author choosing exact public places moves their cats of cat_places (and other viewers' rows).
CREATE FUNCTION cat_list_log_author_precision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO cat_list_changes (cat_id) VALUES (NULL);
  INSERT INTO cat_list_changes (cat_id) SELECT cat_id FROM cat_places WHERE user_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cat_places_list_insert AFTER INSERT ON cat_places
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_cats();
--> statement-breakpoint
CREATE TRIGGER cat_places_list_update AFTER UPDATE ON cat_places
  REFERENCING OLD TABLE AS cat_list_old NEW TABLE AS cat_list_new
  FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_both_cats();
--> statement-breakpoint
CREATE TRIGGER cat_places_list_delete AFTER DELETE ON cat_places
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_cats();
--> statement-breakpoint
CREATE TRIGGER posts_cat_list_insert AFTER INSERT ON posts
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_cats();
--> statement-breakpoint
CREATE TRIGGER posts_cat_list_delete AFTER DELETE ON posts
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_cats();
--> statement-breakpoint
CREATE TRIGGER posts_cat_list_update AFTER UPDATE ON posts
  FOR EACH ROW
  WHEN ((OLD.cat_id IS NOT NULL OR NEW.cat_id IS NOT NULL) AND (
    OLD.cat_id IS DISTINCT FROM NEW.cat_id
    OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at
    OR OLD.moderation IS DISTINCT FROM NEW.moderation
    OR OLD.author_suspended IS DISTINCT FROM NEW.author_suspended
    OR OLD.show_location IS DISTINCT FROM NEW.show_location
    OR OLD.latitude IS DISTINCT FROM NEW.latitude
    OR OLD.longitude IS DISTINCT FROM NEW.longitude
    OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.media_key IS DISTINCT FROM NEW.media_key
    OR OLD.width IS DISTINCT FROM NEW.width
    OR OLD.height IS DISTINCT FROM NEW.height
    OR OLD.placeholder IS DISTINCT FROM NEW.placeholder
    OR OLD.alt_text IS DISTINCT FROM NEW.alt_text))
  EXECUTE FUNCTION cat_list_log_row_cats();
--> statement-breakpoint
CREATE TRIGGER cats_list_update AFTER UPDATE ON cats
  FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name
    OR OLD.living IS DISTINCT FROM NEW.living
    OR OLD.home_latitude IS DISTINCT FROM NEW.home_latitude
    OR OLD.home_longitude IS DISTINCT FROM NEW.home_longitude
    OR OLD.cover_post_id IS DISTINCT FROM NEW.cover_post_id
    OR OLD.merged_into IS DISTINCT FROM NEW.merged_into
    OR OLD.removed_at IS DISTINCT FROM NEW.removed_at)
  EXECUTE FUNCTION cat_list_log_cat_row();
--> statement-breakpoint
CREATE TRIGGER cats_list_delete AFTER DELETE ON cats
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_deleted_cats();
--> statement-breakpoint
CREATE TRIGGER cat_caretakers_list_insert AFTER INSERT ON cat_caretakers
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_cats();
--> statement-breakpoint
CREATE TRIGGER cat_caretakers_list_delete AFTER DELETE ON cat_caretakers
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_cats();
--> statement-breakpoint
CREATE TRIGGER missing_alerts_list_insert AFTER INSERT ON missing_alerts
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_cats();
--> statement-breakpoint
CREATE TRIGGER missing_alerts_list_delete AFTER DELETE ON missing_alerts
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_cats();
--> statement-breakpoint
CREATE TRIGGER missing_alerts_list_update AFTER UPDATE ON missing_alerts
  FOR EACH ROW EXECUTE FUNCTION cat_list_log_row_cats();
--> statement-breakpoint
CREATE TRIGGER users_cat_list_precision AFTER UPDATE OF exact_public_location ON users
  FOR EACH ROW
  WHEN (OLD.exact_public_location IS DISTINCT FROM NEW.exact_public_location)
  EXECUTE FUNCTION cat_list_log_author_precision();
--> statement-breakpoint
CREATE TRIGGER hidden_posts_cat_list_insert AFTER INSERT ON hidden_posts
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_viewers();
--> statement-breakpoint
CREATE TRIGGER hidden_posts_cat_list_delete AFTER DELETE ON hidden_posts
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_viewers();
--> statement-breakpoint
CREATE TRIGGER blocks_cat_list_insert AFTER INSERT ON blocks
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_viewers();
--> statement-breakpoint
CREATE TRIGGER blocks_cat_list_delete AFTER DELETE ON blocks
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_viewers();
--> statement-breakpoint
CREATE TRIGGER group_members_cat_list_insert AFTER INSERT ON group_members
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_viewers();
--> statement-breakpoint
CREATE TRIGGER group_members_cat_list_delete AFTER DELETE ON group_members
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_viewers();
--> statement-breakpoint
CREATE TRIGGER post_groups_cat_list_insert AFTER INSERT ON post_groups
  REFERENCING NEW TABLE AS cat_list_new FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_new_viewers();
--> statement-breakpoint
CREATE TRIGGER post_groups_cat_list_delete AFTER DELETE ON post_groups
  REFERENCING OLD TABLE AS cat_list_old FOR EACH STATEMENT EXECUTE FUNCTION cat_list_log_old_viewers();
