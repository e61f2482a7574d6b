import { once } from 'node:events';
import { openDatabase } from '../../src/index.ts';

/** One "API replica" for the migration race: connects, says ready, migrates when told "go" on stdin. */
const database = openDatabase({ driver: 'postgres', url: process.argv[2]!, poolSize: 2 });
await database.ping();
process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdin.destroy(); // an open stdin would keep this process alive
try {
  await database.migrate();
  process.stdout.write('migrated\n');
} catch (error) {
  process.stderr.write(`migration failed: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
