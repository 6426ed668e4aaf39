CREATE TABLE "map_changes" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"post_id" uuid NOT NULL,
	"xid" bigint DEFAULT (pg_current_xact_id()::text)::bigint NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "map_changes_xid_idx" ON "map_changes" USING btree ("xid");--> statement-breakpoint
CREATE INDEX "map_changes_changed_at_idx" ON "map_changes" USING btree ("changed_at");