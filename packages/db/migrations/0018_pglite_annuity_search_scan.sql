-- Hand-written (decision 176). The embedded database (PGlite) keeps no trigram index on the annuity
-- patents' search text: there every statement runs on the API's own thread, and the index's upkeep
-- made a 100,000-row file's inserts ~4x slower, in statements of 200-450 ms. A search there scans
-- the file's rows. PostgreSQL keeps the index (its upkeep runs in the database's own processes).
DO $$
BEGIN
  IF version() LIKE '%PGlite%' THEN
    DROP INDEX IF EXISTS "annuity_patents_search_trgm_idx";
  END IF;
END
$$;
