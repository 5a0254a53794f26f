ALTER TABLE "gallery_draft_images" ADD COLUMN "alt" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "gallery_images" ADD COLUMN "alt" text DEFAULT '' NOT NULL;