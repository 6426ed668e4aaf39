CREATE TABLE "data_exports" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"file_key" text,
	"size_bytes" bigint,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "data_exports_status" CHECK ("data_exports"."status" in ('running', 'ready', 'failed')),
	CONSTRAINT "data_exports_ready_has_file" CHECK ("data_exports"."status" <> 'ready' or ("data_exports"."file_key" is not null and "data_exports"."size_bytes" is not null and "data_exports"."finished_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_finished_idx" ON "data_exports" USING btree ("finished_at");