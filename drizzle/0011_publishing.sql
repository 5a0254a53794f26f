ALTER TABLE "articles" ADD COLUMN "publish_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "galleries" ADD COLUMN "publish_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "gallery_drafts" ADD COLUMN "publish_at_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "articles_publish_at_idx" ON "articles" USING btree ("publish_at");--> statement-breakpoint
CREATE INDEX "galleries_publish_at_idx" ON "galleries" USING btree ("publish_at");--> statement-breakpoint
-- Everything that existed before drafts stays published, from when it was made.
UPDATE "articles" SET "publish_at" = "created_at";--> statement-breakpoint
UPDATE "galleries" SET "publish_at" = "created_at";
