CREATE TABLE "notification_counters" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_preferences" (
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"in_app" boolean NOT NULL,
	"push" boolean NOT NULL,
	CONSTRAINT "notification_preferences_user_id_type_pk" PRIMARY KEY("user_id","type"),
	CONSTRAINT "notification_preferences_type" CHECK ("notification_preferences"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share'))
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"recipient_id" uuid NOT NULL,
	"type" text NOT NULL,
	"actor_id" uuid,
	"post_id" uuid,
	"comment_id" uuid,
	"group_id" uuid,
	"window_start" timestamp with time zone,
	"seq" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share')),
	CONSTRAINT "notifications_like_shape" CHECK (("notifications"."type" = 'like') = ("notifications"."window_start" is not null and "notifications"."actor_id" is null)),
	CONSTRAINT "notifications_post_types" CHECK ("notifications"."type" not in ('like', 'comment', 'reply', 'group_share') or "notifications"."post_id" is not null),
	CONSTRAINT "notifications_comment_types" CHECK ("notifications"."type" not in ('comment', 'reply') or "notifications"."comment_id" is not null),
	CONSTRAINT "notifications_group_types" CHECK ("notifications"."type" not in ('join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share') or "notifications"."group_id" is not null),
	CONSTRAINT "notifications_not_own" CHECK ("notifications"."actor_id" is null or "notifications"."actor_id" <> "notifications"."recipient_id")
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_counters" ADD CONSTRAINT "notification_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_post_id_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_recipient_seq_idx" ON "notifications" USING btree ("recipient_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_like_window_idx" ON "notifications" USING btree ("recipient_id","post_id","window_start") WHERE "notifications"."type" = 'like';--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("recipient_id") WHERE "notifications"."read_at" is null;--> statement-breakpoint
CREATE INDEX "notifications_actor_idx" ON "notifications" USING btree ("actor_id");--> statement-breakpoint
CREATE INDEX "notifications_post_idx" ON "notifications" USING btree ("post_id");--> statement-breakpoint
CREATE INDEX "notifications_comment_idx" ON "notifications" USING btree ("comment_id");--> statement-breakpoint
CREATE INDEX "notifications_group_idx" ON "notifications" USING btree ("group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
-- add_notification() is the one place that decides whether and how a user is told something (issue 25).
-- It runs inside the transaction of its cause, so an entry exists exactly when its cause committed. It
-- tells nobody about their own actions, nothing between users who share a block, nothing about a post
-- the recipient hid, and nothing of a type they switched off. Each write takes the recipient's next
-- event number under the row lock of their counter (writers of the same recipient wait for each other's
-- commit, so the numbers are in commit order), and NOTIFYs 'recipient seq' on commit: ids only, the
-- listeners read the row. Likes of one post in one 12 h window share an entry; a new like moves it up
-- and makes it unread again. `p_at` is when the cause happened (a like's created_at: the window it falls in).
CREATE FUNCTION add_notification(
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
  PERFORM pg_notify('notifications', p_recipient::text || ' ' || v_seq::text);
  RETURN v_id;
END $$;
--> statement-breakpoint
-- The 12 h window a like falls in, aligned to the epoch: fixed windows need no lock to agree on.
CREATE FUNCTION notification_like_window(at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE AS $$ SELECT to_timestamp(floor(extract(epoch FROM at) / 43200) * 43200) $$;
--> statement-breakpoint
-- A like tells the post's author; the toggle is one statement (social.repository.ts), so the entry is
-- written by this trigger, in that statement's transaction.
CREATE FUNCTION notifications_like_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM add_notification(p.user_id, 'like', NEW.user_id, NEW.post_id, NULL, NULL, NEW.created_at)
    FROM posts p WHERE p.id = NEW.post_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An unlike takes its author out of the entry (who liked is read from likes); the entry goes when no
-- like of its window is left.
CREATE FUNCTION notifications_like_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM notifications n
  WHERE n.type = 'like' AND n.post_id = OLD.post_id
    AND n.window_start = notification_like_window(OLD.created_at)
    AND NOT EXISTS (
      SELECT 1 FROM likes l
      WHERE l.post_id = OLD.post_id AND l.user_id <> n.recipient_id
        AND l.created_at >= n.window_start AND l.created_at < n.window_start + interval '12 hours'
    );
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Any entry that goes (its cause undone or deleted, by cascade or not) is announced, so open streams
-- drop it and recount: 'recipient removed id'.
CREATE FUNCTION notifications_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('notifications', OLD.recipient_id::text || ' removed ' || OLD.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER likes_notify_added AFTER INSERT ON likes FOR EACH ROW EXECUTE FUNCTION notifications_like_added();
--> statement-breakpoint
CREATE TRIGGER likes_notify_removed AFTER DELETE ON likes FOR EACH ROW EXECUTE FUNCTION notifications_like_removed();
--> statement-breakpoint
CREATE TRIGGER notifications_notify_removed AFTER DELETE ON notifications FOR EACH ROW EXECUTE FUNCTION notifications_removed();
