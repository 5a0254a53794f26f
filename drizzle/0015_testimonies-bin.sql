ALTER TABLE "testimonies" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "testimonies" ADD COLUMN "deleted_by" text;