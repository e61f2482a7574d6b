// Writes the tests' PGlite template, then exits: `node pglite-template.mjs OUT PARAMS_JSON MIGRATIONS_DIR`.
// An in-memory database initialised (initdb) and migrated, dumped as an uncompressed tar that
// `openDatabase({ driver: 'pglite', dataDir: 'memory://', template })` starts from. Run as its own
// short process so that the caller can stay synchronous and does not keep initdb's memory.
import { writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

const [out, params, migrationsFolder] = process.argv.slice(2);
const client = new PGlite('memory://', { startParams: JSON.parse(params), extensions: { pg_trgm } });
await client.waitReady;
await migrate(drizzle({ client }), { migrationsFolder });
const dump = await client.dumpDataDir('none');
writeFileSync(out, Buffer.from(await dump.arrayBuffer()));
await client.close();
