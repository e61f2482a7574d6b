DROP INDEX "annuity_patents_file_next_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_previous_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_publication_idx";--> statement-breakpoint
DROP INDEX "annuity_patents_file_reference_idx";--> statement-breakpoint
CREATE INDEX "annuity_files_owner_name_idx" ON "annuity_files" USING btree ("owner_id","import_name","created_at","id");--> statement-breakpoint
CREATE INDEX "annuity_files_name_idx" ON "annuity_files" USING btree ("import_name","created_at","id");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_filing_number_idx" ON "annuity_patents" USING btree ("file_id","num_depot","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_name_idx" ON "annuity_patents" USING btree ("file_id","nom","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_country_idx" ON "annuity_patents" USING btree ("file_id","pays","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_payer_idx" ON "annuity_patents" USING btree ("file_id","payeur","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_filing_date_idx" ON "annuity_patents" USING btree ("file_id","date_depot","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_filing_month_idx" ON "annuity_patents" USING btree ("file_id","mois_date_depot","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_previous_number_idx" ON "annuity_patents" USING btree ("file_id","quant_precedent","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_deadline_idx" ON "annuity_patents" USING btree ("file_id","limite_date_prochaine_annuite","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_next_idx" ON "annuity_patents" USING btree ("file_id","date_prochaine_annuite","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_previous_idx" ON "annuity_patents" USING btree ("file_id","date_precedente_annuite","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_publication_idx" ON "annuity_patents" USING btree ("file_id","num_publication","row_index","colour");--> statement-breakpoint
CREATE INDEX "annuity_patents_file_reference_idx" ON "annuity_patents" USING btree ("file_id","reference","row_index","colour");