import { openDatabase, roles } from '../../src/index.ts';

/** An embedded portal stand-in: opens the PGlite directory given as argument and keeps it open until killed. */
const database = openDatabase({ driver: 'pglite', dataDir: process.argv[2]! });
await database.migrate();
await database.db.insert(roles).values({ slug: 'written-by-holder' });
process.stdout.write('holding\n');
setInterval(() => {}, 60_000);
