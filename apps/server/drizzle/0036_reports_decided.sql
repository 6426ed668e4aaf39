ALTER TABLE "reports" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
-- Reports a moderator has resolved were decided (issue 46): their reporters no longer count towards
-- an automatic hide of the same target, even after they report it again.
UPDATE "reports" SET "decided_at" = "resolved_at" WHERE "resolved_at" IS NOT NULL;
