import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase, testDatabaseBaseUrl } from '../src/testing.ts';
import { runChild } from './support/child.ts';

const baseUrl = testDatabaseBaseUrl();
const journal = JSON.parse(readFileSync(new URL('../migrations/meta/_journal.json', import.meta.url), 'utf8')) as { entries: unknown[] };

describe.skipIf(!baseUrl)('migrations on PostgreSQL', () => {
  it('API replicas starting together on a fresh database all migrate, each migration applied once (advisory lock)', async () => {
    const scratch = await createScratchDatabase(baseUrl!);
    try {
      // Four real processes, released at the same instant once each is connected.
      const replicas = Array.from({ length: 4 }, () => runChild('migrate-on-go.ts', [scratch.url], import.meta.dirname));
      await Promise.all(replicas.map((replica) => replica.waitFor(/ready/)));
      for (const replica of replicas) replica.process.stdin!.end('go\n');
      const codes = await Promise.all(replicas.map((replica) => replica.exited));
      expect(codes, replicas.map((replica) => replica.output()).join('\n')).toEqual([0, 0, 0, 0]);

      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ count: string }>('select count(*) from drizzle.__drizzle_migrations');
        expect(Number(rows[0]!.count)).toBe(journal.entries.length);
      } finally {
        await client.end();
      }
    } finally {
      await scratch.drop();
    }
  });
});
