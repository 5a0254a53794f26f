ALTER TABLE "login_lockouts" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "login_lockouts" CASCADE;--> statement-breakpoint
ALTER TABLE "login_failures" RENAME COLUMN "ip" TO "address";--> statement-breakpoint
DROP INDEX "login_failures_ip_at_idx";--> statement-breakpoint
CREATE INDEX "login_failures_address_at_idx" ON "login_failures" USING btree ("address","at");