DROP INDEX "annuity_patents_file_publication_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_filing_number_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_reference_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_name_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_country_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_payer_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_filing_date_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_filing_month_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_previous_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_previous_number_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_next_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_deadline_idx";