DROP INDEX "receipts_reference_client_idx";--> statement-breakpoint
CREATE INDEX "ledes_runs_name_idx" ON "ledes_runs" USING btree (lower("original_name"),"created_at","id");--> statement-breakpoint
CREATE INDEX "ledes_runs_badge_idx" ON "ledes_runs" USING btree ((case when "state" = 'in_progress' then 0 when "state" = 'Error' then 1 when "accepted" = false or ("accepted" is null and "error_line_count" > 0) then 2 else 3 end),"created_at","id");--> statement-breakpoint
CREATE INDEX "ledes_runs_office_created_idx" ON "ledes_runs" USING btree ("office","created_at","id");--> statement-breakpoint
CREATE INDEX "ledes_runs_type_created_idx" ON "ledes_runs" USING btree ("type","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_reference_inpi_idx" ON "receipts" USING btree ("reference_inpi","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_reference_provider_idx" ON "receipts" USING btree ("reference_provider","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_payment_order_date_idx" ON "receipts" USING btree ("date_ordre_paiement","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_file_name_idx" ON "receipts" USING btree ("file_name","created_at","id");--> statement-breakpoint
CREATE INDEX "receipts_to_complete_idx" ON "receipts" USING btree ("created_at","id") WHERE "receipts"."needs_completion";--> statement-breakpoint
CREATE INDEX "receipts_reference_client_idx" ON "receipts" USING btree ("reference_client","created_at","id");