ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_post_types";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "cat_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_cat_id_cats_id_fk" FOREIGN KEY ("cat_id") REFERENCES "public"."cats"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_cat_idx" ON "notifications" USING btree ("cat_id") WHERE "notifications"."cat_id" is not null;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_type" CHECK ("notification_preferences"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_cat_types" CHECK (("notifications"."type" = 'cat_sighting') = ("notifications"."cat_id" is not null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_types" CHECK ("notifications"."type" not in ('like', 'comment', 'reply', 'group_share', 'cat_sighting') or "notifications"."post_id" is not null);--> statement-breakpoint
-- add_notifications() (migrations 0014, 0015) learns the cat an entry is about: p_cat, last and optional,
-- so its other callers (group shares, the comment trigger) call it as before. The rest is unchanged:
-- the same rules (notification_allowed), the counters locked once each in the order of their ids, one
-- statement for every recipient, announced after commit (announce_notification).
DROP FUNCTION add_notifications(uuid[], text[], uuid[], uuid, uuid, uuid, timestamptz);
--> statement-breakpoint
CREATE FUNCTION add_notifications(
  p_recipients uuid[], p_types text[], p_groups uuid[], p_actor uuid, p_post uuid, p_comment uuid, p_at timestamptz,
  p_cat uuid DEFAULT NULL
) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_window timestamptz := notification_like_window(p_at);
  v_payloads text[];
BEGIN
  WITH asked AS MATERIALIZED (
    SELECT r.recipient, r.type, r.group_id
    FROM unnest(p_recipients, p_types, p_groups) AS r(recipient, type, group_id)
    WHERE r.recipient IS NOT NULL
      AND NOT (r.type = 'reply' AND EXISTS (
        SELECT 1 FROM notifications n
        WHERE n.type = 'reply' AND n.post_id = p_post AND n.window_start = v_window
          AND n.recipient_id = r.recipient AND n.read_at IS NULL))
  ), told AS MATERIALIZED (
    SELECT a.recipient, a.type, a.group_id,
      row_number() OVER (PARTITION BY a.recipient ORDER BY a.type, a.group_id) AS k,
      count(*) OVER (PARTITION BY a.recipient) AS n
    FROM asked a
    WHERE notification_allowed(a.recipient, a.type, p_actor, p_post)
  ), counted AS (
    INSERT INTO notification_counters AS c (user_id, seq)
      SELECT t.recipient, max(t.n) FROM told t GROUP BY t.recipient ORDER BY t.recipient
      ON CONFLICT (user_id) DO UPDATE SET seq = c.seq + excluded.seq
      RETURNING c.user_id, c.seq
  ), single AS (
    INSERT INTO notifications (recipient_id, type, actor_id, post_id, comment_id, group_id, cat_id, seq, created_at, updated_at)
      SELECT t.recipient, t.type, p_actor, p_post, p_comment, t.group_id, p_cat, c.seq - t.n + t.k, p_at, p_at
      FROM told t JOIN counted c ON c.user_id = t.recipient
      WHERE t.type <> 'reply'
      RETURNING recipient_id, seq
  ), grouped AS (
    INSERT INTO notifications (recipient_id, type, post_id, window_start, seq, created_at, updated_at)
      SELECT t.recipient, 'reply', p_post, v_window, c.seq - t.n + t.k, p_at, p_at
      FROM told t JOIN counted c ON c.user_id = t.recipient
      WHERE t.type = 'reply'
      ON CONFLICT (post_id, window_start, recipient_id) WHERE type = 'reply'
      DO UPDATE SET seq = excluded.seq, updated_at = excluded.updated_at, read_at = NULL
      RETURNING recipient_id, seq
  )
  SELECT array_agg(x.recipient_id::text || ' ' || x.seq::text) INTO v_payloads
    FROM (SELECT * FROM single UNION ALL SELECT * FROM grouped) x;
  PERFORM announce_notification(p) FROM unnest(v_payloads) p;
  RETURN coalesce(cardinality(v_payloads), 0);
END $$;
--> statement-breakpoint
-- A post that becomes a sighting of a cat (inserted with cat_id, or linked or relinked later: PUT
-- /api/posts/{postId}/cat) tells the cat's followers and caretakers, once each, in the statement's own
-- transaction and in one add_notifications() statement whatever their number. Its author is the actor:
-- notification_allowed() leaves out the author, anyone who shares a block with them, anyone who hid the
-- post and anyone who switched the type off. A post in its author's trash tells nobody. Unlinked or
-- linked to another cat, the post takes back what it said about the cat it left (a cause undone, as a
-- deleted comment); trashed, its entries are out of view until it is restored, and purged, they go with
-- it (foreign key), as every entry about a post. The entry carries the cat and the post, never a place.
CREATE FUNCTION notifications_post_cat_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_people uuid[];
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.cat_id IS NOT NULL THEN
    DELETE FROM notifications n WHERE n.type = 'cat_sighting' AND n.post_id = OLD.id AND n.cat_id = OLD.cat_id;
  END IF;
  IF NEW.cat_id IS NULL OR NEW.deleted_at IS NOT NULL THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(array_agg(DISTINCT p.user_id), '{}') INTO v_people FROM (
    SELECT f.user_id FROM cat_follows f WHERE f.cat_id = NEW.cat_id
    UNION SELECT c.user_id FROM cat_caretakers c WHERE c.cat_id = NEW.cat_id
  ) p;
  IF cardinality(v_people) > 0 THEN
    PERFORM add_notifications(
      v_people,
      array_fill('cat_sighting'::text, ARRAY[cardinality(v_people)]),
      array_fill(NULL::uuid, ARRAY[cardinality(v_people)]),
      NEW.user_id, NEW.id, NULL, now(), NEW.cat_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER posts_notify_cat_linked AFTER INSERT ON posts FOR EACH ROW
  WHEN (NEW.cat_id IS NOT NULL) EXECUTE FUNCTION notifications_post_cat_changed();
--> statement-breakpoint
CREATE TRIGGER posts_notify_cat_changed AFTER UPDATE OF cat_id ON posts FOR EACH ROW
  WHEN (OLD.cat_id IS DISTINCT FROM NEW.cat_id) EXECUTE FUNCTION notifications_post_cat_changed();
