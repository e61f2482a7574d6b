-- The values that decided a LEDES finding (issue 12): found, expected, and found − expected for amounts; null when none did.
ALTER TABLE "ledes_findings" ADD COLUMN "found" text;--> statement-breakpoint
ALTER TABLE "ledes_findings" ADD COLUMN "expected" text;--> statement-breakpoint
ALTER TABLE "ledes_findings" ADD COLUMN "difference" text;