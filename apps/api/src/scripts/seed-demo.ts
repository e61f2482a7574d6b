import { loadConfig } from '@portal/config';
import { createMaintenance, DatabaseInUseError, openDatabase, type DatabaseHandle } from '@portal/db';
import { seedDemoPortfolio } from '@portal/jobs';
import { DEMO_PASSWORD, seedBaseData, seedDemoUsers } from '../seed.ts';
import { hashPassword } from '../security/passwords.ts';

/**
 * npm run seed:demo — one demo user per role in the configured database (refused in production), and
 * a demo patent portfolio: `--patents N` (default 2,000) over `--cabinets N` (default 8) cabinets,
 * one agent per cabinet (`agent.annuites.NN@portal.local`, the demo password).
 */
function option(name: string, fallback: number, max: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const raw = index === -1 ? undefined : process.argv[index + 1];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    console.error(`--${name} takes a whole number from 0 to ${max}`);
    process.exit(1);
  }
  return value;
}
const patents = option('patents', 2000, 1_000_000);
const cabinetCount = option('cabinets', 8, 500);
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
const begun = performance.now();
const portfolio = await seedDemoPortfolio(database.db, {
  patents,
  cabinets: Math.max(1, cabinetCount),
  today: new Date().toISOString().slice(0, 10),
  passwordHash: await hashPassword(DEMO_PASSWORD),
});
// A new user's first list is fast: every table written is vacuumed (visibility map: counts read the
// index only) and analysed before the portal starts (decision 175). PostgreSQL: the server's statistics target.
const maintained = performance.now();
const steps = await createMaintenance({ db: database.db, statisticsTarget: database.driver === 'pglite' ? undefined : null }).pass({ force: true });
const maintenanceSeconds = ((performance.now() - maintained) / 1000).toFixed(1);
await database.close();
console.log(created.length ? created.map((u) => `${u.role.padEnd(20)} ${u.email}`).join('\n') : 'Demo users already exist.');
console.log(`Demo password for every demo user: ${DEMO_PASSWORD}`);
console.log(`Database vacuumed and analysed: ${new Set(steps.map((s) => s.table)).size} tables in ${maintenanceSeconds} s`);
console.log(
  `Patent portfolio: ${portfolio.patents} new patents (of ${patents}) over ${portfolio.cabinets} cabinets in ${((performance.now() - begun) / 1000).toFixed(1)} s; agents ${portfolio.agents[0]?.email ?? '-'} … ${portfolio.agents.at(-1)?.email ?? '-'}`,
);
