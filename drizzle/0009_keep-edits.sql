CREATE TABLE "kept_forms" (
	"id" text PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"form" text NOT NULL,
	"path" text NOT NULL,
	"fields" jsonb NOT NULL,
	"photo_key" text,
	"photo_name" text,
	"photo_size" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "gallery_drafts" ADD COLUMN "base_version" integer;--> statement-breakpoint
CREATE INDEX "kept_forms_owner_idx" ON "kept_forms" USING btree ("owner","created_at");--> statement-breakpoint
CREATE INDEX "kept_forms_expires_idx" ON "kept_forms" USING btree ("expires_at");