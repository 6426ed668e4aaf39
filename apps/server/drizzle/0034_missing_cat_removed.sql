ALTER TABLE "missing_alerts" ADD COLUMN "cat_removed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Alerts of cats a moderator removed now (issue 27): they were left out by a lookup of the cat per alert.
UPDATE "missing_alerts" a SET "cat_removed" = true
FROM "cats" c
WHERE c."id" = a."cat_id" AND c."removed_at" IS NOT NULL;
--> statement-breakpoint
-- missing_alerts.cat_removed follows cats.removed_at: set or cleared on the cat's alerts when a moderator
-- removes the cat or an appeal restores it, and read from the cat when an alert is written for it.
CREATE FUNCTION missing_alerts_cat_removed_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE missing_alerts SET cat_removed = (NEW.removed_at IS NOT NULL)
    WHERE cat_id = NEW.id AND cat_removed IS DISTINCT FROM (NEW.removed_at IS NOT NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER cats_removed_missing_alerts AFTER UPDATE OF removed_at ON cats
  FOR EACH ROW WHEN (OLD.removed_at IS DISTINCT FROM NEW.removed_at)
  EXECUTE FUNCTION missing_alerts_cat_removed_follow();
--> statement-breakpoint
CREATE FUNCTION missing_alerts_cat_removed_read() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.cat_removed := EXISTS (SELECT 1 FROM cats c WHERE c.id = NEW.cat_id AND c.removed_at IS NOT NULL);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER missing_alerts_cat_removed BEFORE INSERT OR UPDATE OF cat_id, cat_removed ON missing_alerts
  FOR EACH ROW EXECUTE FUNCTION missing_alerts_cat_removed_read();
