import { loadConfig } from '@portal/config';
import { DatabaseInUseError, openDatabase, type DatabaseHandle } from '@portal/db';
import { DEMO_PASSWORD, seedBaseData, seedDemoUsers } from '../seed.ts';

/** npm run seed:demo — one demo user per role in the configured database (refused in production). */
const config = loadConfig();
if (config.isProduction) {
  console.error('seed:demo is refused when NODE_ENV=production');
  process.exit(1);
}
let database: DatabaseHandle;
try {
  database = openDatabase(config.database);
} catch (error) {
  // The embedded portal is running on this data directory: writing beside it would lose data.
  if (error instanceof DatabaseInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
await database.migrate();
await seedBaseData(database.db, config.admin);
const created = await seedDemoUsers(database.db);
await database.close();
console.log(created.length ? created.map((u) => `${u.role.padEnd(20)} ${u.email}`).join('\n') : 'Demo users already exist.');
console.log(`Demo password for every demo user: ${DEMO_PASSWORD}`);
