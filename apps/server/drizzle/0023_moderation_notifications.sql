ALTER TABLE "notification_preferences" DROP CONSTRAINT "notification_preferences_type";--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_type";--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "moderation_action_id" uuid;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_moderation_action_id_moderation_actions_id_fk" FOREIGN KEY ("moderation_action_id") REFERENCES "public"."moderation_actions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_moderation_action_idx" ON "notifications" USING btree ("moderation_action_id") WHERE "notifications"."moderation_action_id" is not null;--> statement-breakpoint
ALTER TABLE "notification_preferences" ADD CONSTRAINT "notification_preferences_type" CHECK ("notification_preferences"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report', 'cat_suggestion', 'cat_suggestion_accepted', 'moderation_decision', 'appeal_decided', 'report_outcome'));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_moderation_types" CHECK (("notifications"."type" in ('moderation_decision', 'appeal_decided', 'report_outcome')) = ("notifications"."moderation_action_id" is not null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_type" CHECK ("notifications"."type" in ('like', 'comment', 'reply', 'join_request', 'request_accepted', 'request_declined', 'removed_from_group', 'group_share', 'cat_sighting', 'cat_missing_nearby', 'cat_found', 'missing_report', 'cat_suggestion', 'cat_suggestion_accepted', 'moderation_decision', 'appeal_decided', 'report_outcome'));--> statement-breakpoint
-- Tells a user of a moderation action (issue 27) inside the action's transaction. Unlike add_notification()
-- there is no actor (moderators act unnamed) and no block to honour: a decision about your content reaches
-- you whoever took it. The user's switch for the type still applies to the entry; the statement of
-- reasons in Settings is there whatever the switch says.
CREATE FUNCTION add_moderation_notification(p_recipient uuid, p_type text, p_action uuid) RETURNS uuid
LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_id uuid;
BEGIN
  IF p_recipient IS NULL OR NOT EXISTS (SELECT 1 FROM users WHERE id = p_recipient) THEN
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
  INSERT INTO notifications (recipient_id, type, moderation_action_id, seq)
    VALUES (p_recipient, p_type, p_action, v_seq)
    RETURNING id INTO v_id;
  PERFORM announce_notification(p_recipient::text || ' ' || v_seq::text);
  RETURN v_id;
END $$;
