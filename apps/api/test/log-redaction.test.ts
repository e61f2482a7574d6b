import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@portal/db';
import { databaseKinds, startTestPortal, type TestPortal } from './support/portal.ts';

describe.each(databaseKinds())('LOG-01 failed-query logs carry no query values (%s)', (kind) => {
  let t: TestPortal;
  beforeAll(async () => {
    t = await startTestPortal(kind);
  });
  afterAll(async () => t.close());

  it('failed-query logs never print the parameters: no e-mail, no argon2 hash', async () => {
    const user = await t.createUser('user_annuites');
    const [row] = await t.portal.ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, user.email));
    const hash = row!.hash!;
    expect(hash).toMatch(/^\$argon2id\$/);

    // Through a request: the login's lookup (the e-mail as parameter) fails, the error middleware logs it.
    await t.portal.ctx.db.execute(sql`alter table users rename column password_hash to password_hash_moved`);
    try {
      const res = await t.client().post('/api/auth/login', { email: user.email, password: user.password });
      expect(res.status).toBe(500);
    } finally {
      await t.portal.ctx.db.execute(sql`alter table users rename column password_hash_moved to password_hash`);
    }

    // Directly through the logger workers share: the hash as a parameter, the e-mail quoted by PostgreSQL
    // in its own message (invalid input syntax for type uuid: "…").
    const failure = await t.portal.ctx.db
      .select()
      .from(users)
      .where(and(eq(users.passwordHash, hash), eq(users.id, user.email)))
      .then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    t.portal.ctx.logger.error({ err: failure }, 'query failed in a job');

    const logs = t.logs.join('\n');
    expect(logs).toContain('unexpected error');
    expect(logs).toContain('query failed in a job');
    expect(logs).toContain('[redacted]');
    expect(logs).not.toContain(user.email);
    expect(logs).not.toContain(hash);
    expect(logs).not.toContain('$argon2id$');
  });
});
