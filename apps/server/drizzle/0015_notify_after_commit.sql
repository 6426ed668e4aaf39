-- Announcing a notification after its cause commits, not inside it (docs/decisions/010-notify-after-commit.md).
-- A NOTIFY makes PostgreSQL take one lock for the whole database at commit and hold it until the commit
-- is on disk, so every notifying transaction (a like, a comment, a group event) waited for the previous
-- one's flush: with 8 clients likes fell from ~1,000 to ~120 a second. The app's PostgreSQL connections
-- set cats.notify_after_commit (db/announce-after-commit.ts): there an announcement is a NOTICE to the
-- connection that made it, which NOTIFYs it once its transaction has committed, outside the commit's lock.
-- Anywhere else (PGlite, psql, a maintenance script) it is the NOTIFY it always was. Listeners read the
-- rows, so an announcement is a hint: a missed one is caught up by the stream's next event or replay.
CREATE FUNCTION announce_notification(p_payload text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('cats.notify_after_commit', true) = 'on' THEN
    RAISE NOTICE USING MESSAGE = p_payload, ERRCODE = '01N01';
  ELSE
    PERFORM pg_notify('notifications', p_payload);
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION add_notification(
  p_recipient uuid, p_type text, p_actor uuid, p_post uuid, p_comment uuid, p_group uuid,
  p_at timestamptz DEFAULT now()
) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_id uuid;
BEGIN
  IF p_recipient IS NULL OR p_recipient = p_actor THEN
    RETURN NULL;
  END IF;
  IF p_actor IS NOT NULL AND EXISTS (
    SELECT 1 FROM blocks
    WHERE (blocker_id = p_recipient AND blocked_id = p_actor) OR (blocker_id = p_actor AND blocked_id = p_recipient)
  ) THEN
    RETURN NULL;
  END IF;
  IF p_post IS NOT NULL AND EXISTS (SELECT 1 FROM hidden_posts WHERE user_id = p_recipient AND post_id = p_post) THEN
    RETURN NULL;
  END IF;
  IF EXISTS (
    SELECT 1 FROM notification_preferences WHERE user_id = p_recipient AND type = p_type AND NOT in_app
  ) THEN
    RETURN NULL;
  END IF;
  INSERT INTO notification_counters AS c (user_id, seq) VALUES (p_recipient, 1)
    ON CONFLICT (user_id) DO UPDATE SET seq = c.seq + 1
    RETURNING c.seq INTO v_seq;
  IF p_type = 'like' THEN
    INSERT INTO notifications (recipient_id, type, post_id, window_start, seq)
      VALUES (p_recipient, 'like', p_post, notification_like_window(p_at), v_seq)
      ON CONFLICT (recipient_id, post_id, window_start) WHERE type = 'like'
      DO UPDATE SET seq = excluded.seq, updated_at = now(), read_at = NULL
      RETURNING id INTO v_id;
  ELSE
    INSERT INTO notifications (recipient_id, type, actor_id, post_id, comment_id, group_id, seq)
      VALUES (p_recipient, p_type, p_actor, p_post, p_comment, p_group, v_seq)
      RETURNING id INTO v_id;
  END IF;
  PERFORM announce_notification(p_recipient::text || ' ' || v_seq::text);
  RETURN v_id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notifications_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM announce_notification(OLD.recipient_id::text || ' removed ' || OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION add_notifications(
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
  PERFORM announce_notification(p) FROM unnest(v_payloads) p;
  RETURN coalesce(cardinality(v_payloads), 0);
END $$;
