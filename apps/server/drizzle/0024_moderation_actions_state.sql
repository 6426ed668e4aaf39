ALTER TABLE "moderation_actions" ADD COLUMN "previous_state" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_actions_reverts_idx" ON "moderation_actions" USING btree ("reverts_action_id") WHERE "moderation_actions"."reverts_action_id" is not null;--> statement-breakpoint
-- A suspension (issue 27) ends every session at once, on every instance: it is announced on the channel
-- of account deletions (migration 0004) when its transaction commits, however it was set (the moderation
-- service, an admin by hand). Each instance's auth plugin then forgets the account, and its next request
-- looks it up again, which now also asks that it be not suspended (src/plugins/auth.ts). Suspensions are
-- rare, so the NOTIFY's commit lock (docs/decisions/010-notify-after-commit.md) costs nothing here.
CREATE FUNCTION users_announce_suspended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cats_account_deleted', NEW.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_suspended_announce AFTER UPDATE OF suspended_at, suspended_until ON users
  FOR EACH ROW
  WHEN (NEW.suspended_at IS NOT NULL
    AND (OLD.suspended_at IS DISTINCT FROM NEW.suspended_at OR OLD.suspended_until IS DISTINCT FROM NEW.suspended_until))
  EXECUTE FUNCTION users_announce_suspended();
