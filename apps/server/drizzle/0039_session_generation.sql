-- Issue 46: a password change or reset bumps users.session_generation in its transaction, and access
-- tokens signed with an older value are refused. The bump is announced on the channel of account
-- deletions (migrations 0004, 0024) when it commits, so every instance forgets what it knew of the
-- account and reads the new value on its next request. Password changes are rare: the NOTIFY's commit
-- lock (docs/decisions/010-notify-after-commit.md) costs nothing here.
ALTER TABLE "refresh_tokens" ADD COLUMN "signed_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "session_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE FUNCTION users_announce_session_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cats_account_deleted', NEW.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_session_generation_announce AFTER UPDATE OF session_generation ON users
  FOR EACH ROW
  WHEN (OLD.session_generation IS DISTINCT FROM NEW.session_generation)
  EXECUTE FUNCTION users_announce_session_generation();
