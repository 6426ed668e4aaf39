ALTER TABLE "notifications" DROP CONSTRAINT "notifications_like_shape";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_comment_types";--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_reply_window_idx" ON "notifications" USING btree ("post_id","window_start","recipient_id") WHERE "notifications"."type" = 'reply';--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_grouped_shape" CHECK (("notifications"."type" in ('like', 'reply')) = ("notifications"."window_start" is not null and "notifications"."actor_id" is null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_comment_types" CHECK ("notifications"."type" <> 'comment' or "notifications"."comment_id" is not null);--> statement-breakpoint
-- Whether a user is told about something: add_notification()'s rules (0012) for one recipient, for the
-- set-based writer below. Nothing about one's own actions, nothing between users who share a block,
-- nothing about a post the recipient hid or whose author they share a block with (they cannot see it),
-- nothing of a type they switched off in the app.
CREATE FUNCTION notification_allowed(p_recipient uuid, p_type text, p_actor uuid, p_post uuid)
  RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT p_recipient IS DISTINCT FROM p_actor
    AND NOT EXISTS (
      SELECT 1 FROM blocks b
      WHERE (b.blocker_id = p_recipient AND b.blocked_id = p_actor) OR (b.blocker_id = p_actor AND b.blocked_id = p_recipient))
    AND (p_post IS NULL OR NOT EXISTS (
      SELECT 1 FROM hidden_posts h WHERE h.user_id = p_recipient AND h.post_id = p_post))
    AND (p_post IS NULL OR NOT EXISTS (
      SELECT 1 FROM posts p JOIN blocks b
        ON (b.blocker_id = p_recipient AND b.blocked_id = p.user_id) OR (b.blocker_id = p.user_id AND b.blocked_id = p_recipient)
      WHERE p.id = p_post))
    AND NOT EXISTS (
      SELECT 1 FROM notification_preferences np WHERE np.user_id = p_recipient AND np.type = p_type AND NOT np.in_app)
$$;
--> statement-breakpoint
-- Tells many users about one cause at once, in its transaction (issue 25): recipients[i] gets an entry
-- of types[i] (about groups[i] where given). One statement for all of them, so a post shared with a
-- group of thousands is one INSERT ... SELECT, not thousands of calls. Each recipient's counter row is
-- locked once, in the order of their ids, whatever the cause: two writers that tell overlapping sets
-- of users cannot deadlock (add_notification() locks a single counter per call). A recipient told k
-- times takes k numbers. Reply entries are grouped like likes: one per recipient per post per 12 h
-- window; while it is still unread a further reply joins it without a write (who replied is read from
-- comments), so a busy thread costs its participants nothing until they have read what it said.
-- `at` is the cause's time: the entries' created_at and the window a reply falls in.
CREATE FUNCTION add_notifications(
  p_recipients uuid[], p_types text[], p_groups uuid[], p_actor uuid, p_post uuid, p_comment uuid, p_at timestamptz
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
    INSERT INTO notifications (recipient_id, type, actor_id, post_id, comment_id, group_id, seq, created_at, updated_at)
      SELECT t.recipient, t.type, p_actor, p_post, p_comment, t.group_id, c.seq - t.n + t.k, p_at, p_at
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
  PERFORM pg_notify('notifications', p) FROM unnest(v_payloads) p;
  RETURN coalesce(cardinality(v_payloads), 0);
END $$;
--> statement-breakpoint
-- A comment tells the post's author ('comment') and the thread's earlier participants ('reply'), in the
-- comment's own statement (social.repository.ts inserts it with one prepared statement). Fan-out stays
-- bounded whatever the thread's size: the repliers told are the distinct authors among the post's 100
-- comments before this one, the 50 most recent of them. Finding them reads at most 100 entries of
-- comments_post_created_idx, and grouped reply entries (add_notifications) make most of them no write at
-- all on a busy thread. Someone who commented further back than that in a thread of hundreds has seen
-- it move on without them; their entry, if unread, still gathers every reply of its window.
CREATE FUNCTION notifications_comment_added() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_owner uuid;
  v_repliers uuid[];
BEGIN
  SELECT p.user_id INTO v_owner FROM posts p WHERE p.id = NEW.post_id;
  SELECT coalesce(array_agg(r.user_id), '{}') INTO v_repliers FROM (
    SELECT e.user_id FROM (
      SELECT c.user_id, c.created_at FROM comments c
      WHERE c.post_id = NEW.post_id AND (c.created_at, c.id) < (NEW.created_at, NEW.id)
      ORDER BY c.created_at DESC, c.id DESC LIMIT 100
    ) e
    WHERE e.user_id <> NEW.user_id AND e.user_id <> v_owner
    GROUP BY e.user_id ORDER BY max(e.created_at) DESC LIMIT 50
  ) r;
  PERFORM add_notifications(
    ARRAY[v_owner] || v_repliers,
    ARRAY['comment'] || array_fill('reply'::text, ARRAY[cardinality(v_repliers)]),
    array_fill(NULL::uuid, ARRAY[1 + cardinality(v_repliers)]),
    NEW.user_id, NEW.post_id, NEW.id, NEW.created_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A deleted comment takes its 'comment' entry with it (foreign key); a reply entry goes when no reply of
-- its window is left (who replied is read from comments, as for likes).
CREATE FUNCTION notifications_comment_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notifications n
  WHERE n.type = 'reply' AND n.post_id = OLD.post_id AND n.window_start = notification_like_window(OLD.created_at)
    AND NOT EXISTS (
      SELECT 1 FROM comments c
      WHERE c.post_id = OLD.post_id AND c.user_id <> n.recipient_id
        AND c.created_at >= n.created_at AND c.created_at < n.window_start + interval '12 hours'
    );
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER comments_notify_added AFTER INSERT ON comments FOR EACH ROW EXECUTE FUNCTION notifications_comment_added();
--> statement-breakpoint
CREATE TRIGGER comments_notify_removed AFTER DELETE ON comments FOR EACH ROW EXECUTE FUNCTION notifications_comment_removed();
