CREATE INDEX "patent_records_tab_reference_client_idx" ON "patent_records" USING btree ("has_instruction","reference_client","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_numero_depot_idx" ON "patent_records" USING btree ("has_instruction","numero_depot","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_numero_publication_idx" ON "patent_records" USING btree ("has_instruction","numero_publication","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_pays_idx" ON "patent_records" USING btree ("has_instruction","pays","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_origine_idx" ON "patent_records" USING btree ("has_instruction","origine","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_quantieme_idx" ON "patent_records" USING btree ("has_instruction","quantieme","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_cost_idx" ON "patent_records" USING btree ("has_instruction","cost","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_instruction_id_idx" ON "patent_records" USING btree ("has_instruction","instruction_id","id");--> statement-breakpoint
CREATE INDEX "patent_records_tab_due_desc_idx" ON "patent_records" USING btree ("has_instruction","date_echeance" DESC NULLS LAST,"id" DESC NULLS LAST);