ALTER TABLE "annuity_files" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "annuity_files" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "ledes_runs" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patent_imports" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "patent_imports" ADD COLUMN "lease_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "receipt_uploads" ADD COLUMN "lease_holder" text;--> statement-breakpoint
ALTER TABLE "receipt_uploads" ADD COLUMN "lease_expires_at" timestamp with time zone;