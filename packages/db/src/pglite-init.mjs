// Initialises an embedded (PGlite) data directory, then exits: `node pglite-init.mjs DIR PARAMS_JSON`.
// Run as its own short process by openDatabase, because PGlite's first start (initdb) leaves
// several hundred MB in the process that runs it; the API then opens the ready directory.
import { PGlite } from '@electric-sql/pglite';

const [dataDir, params] = process.argv.slice(2);
const client = new PGlite(dataDir, { startParams: JSON.parse(params) });
await client.waitReady;
await client.close();
