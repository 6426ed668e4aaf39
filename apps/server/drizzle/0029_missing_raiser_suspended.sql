ALTER TABLE "missing_alerts" ADD COLUMN "raiser_suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Alerts raised by accounts suspended now (their posts and comments are hidden already).
UPDATE "missing_alerts" SET "raiser_suspended" = true
WHERE "raised_by" IN (
  SELECT "id" FROM "users"
  WHERE "suspended_at" IS NOT NULL AND ("suspended_until" IS NULL OR "suspended_until" > now())
);
