ALTER TABLE "annuity_patents" ADD COLUMN "missed_number" integer;--> statement-breakpoint
ALTER TABLE "annuity_patents" ADD COLUMN "missed_lost_after" text;