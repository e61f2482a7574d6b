import { openDatabase, type DatabaseConfig } from '@portal/db';

/** Opens the database, runs `work` on it and closes it whatever happens (the benches seed with the API stopped). */
export async function withDatabase<T>(config: DatabaseConfig, work: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  const handle = openDatabase(config);
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}
