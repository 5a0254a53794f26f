ALTER TABLE "history_photos" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "ministries" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;