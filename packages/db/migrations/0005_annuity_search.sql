-- Trigram matching for the annuity patents' substring search (a trusted extension: the database owner may create it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "annuity_patents_search_trgm_idx" ON "annuity_patents" USING gin ("search_text" gin_trgm_ops);