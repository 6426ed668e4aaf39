-- Each server instance remembers for 2 s that an account exists (src/plugins/auth.ts, LIVE_USER_TTL_MS).
-- A deleted account is announced when its transaction commits, however it was deleted, so that every
-- instance listening (src/db/client.ts, listen) stops honouring its access tokens at once.
CREATE FUNCTION users_announce_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cats_account_deleted', id::text) FROM deleted_users;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_deleted_announce AFTER DELETE ON users
  REFERENCING OLD TABLE AS deleted_users
  FOR EACH STATEMENT EXECUTE FUNCTION users_announce_deleted();
