import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mails } from '@portal/db';
import type { MailTransport } from '@portal/mail';
import type { JobContext } from '@portal/queue';
import { createSendMailProcessor } from '../src/processors/send-mail.ts';
import { createWorld, type World } from './world.ts';

/**
 * The mail is accepted by SMTP, then the database refuses the write that records it as sent (an outage: the fault
 * suite's PostgreSQL stopped 20 s). A retry of the job would send it again; the processor keeps the write until it is
 * stored instead. A trigger of the real database refuses the write while `mail_write_block` has a row.
 */
describe('send-mail: the "sent" write refused after SMTP accepted the mail', () => {
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
    const db = world.database.db;
    await db.execute(sql.raw('create table mail_write_block (since timestamptz)'));
    await db.execute(
      sql.raw(`create function refuse_mail_update() returns trigger language plpgsql as $$
        begin if exists (select 1 from mail_write_block) then raise exception 'database unavailable (test)'; end if; return new; end $$`),
    );
    await db.execute(sql.raw('create trigger refuse_mail_update before update on mails for each row execute function refuse_mail_update()'));
  });
  afterAll(async () => world?.close());

  // Awaited inside: a Drizzle query runs when it is awaited, not when it is built.
  const block = async () => void (await world.database.db.execute(sql`insert into mail_write_block values (now())`));
  const unblock = async () => void (await world.database.db.execute(sql`delete from mail_write_block`));
  /** The world's outbox transport; once a mail is out, the database refuses writes to `mails` for `blockMs` (forever: null). */
  const transport = (blockMs: number | null): MailTransport => ({
    kind: 'outbox',
    async send(message) {
      const info = await world.transport.send(message);
      await block();
      if (blockMs !== null) setTimeout(() => void unblock().catch((error: unknown) => console.error(error)), blockMs);
      return info;
    },
    verify: () => world.transport.verify(),
    close: () => {},
  });
  const context = (signal = new AbortController().signal): JobContext => ({ jobId: 'test', attempt: 1, signal, updateProgress: async () => {}, log: () => {} });
  const sentAt = async (mailId: string) => (await world.database.db.select().from(mails).where(eq(mails.id, mailId)))[0]!.sentAt;

  it('records the mail once the database is back, and a redelivered job sends nothing more', async () => {
    const mailId = await world.createMail();
    const before = world.transport.sent;
    const processor = createSendMailProcessor({ db: world.database.db, transport: transport(800), logger: world.logger, storage: world.storage });
    await processor({ mailId }, context());
    expect(world.transport.sent - before).toBe(1);
    expect(await sentAt(mailId)).not.toBeNull();
    // The job delivered again (BullMQ after a crash before the acknowledgement): the row says sent, nothing goes out.
    await createSendMailProcessor({ db: world.database.db, transport: world.transport, logger: world.logger, storage: world.storage })({ mailId }, context());
    expect(world.transport.sent - before).toBe(1);
  });

  it('gives up the write only when the job is handed back (shutdown)', async () => {
    const mailId = await world.createMail();
    const processor = createSendMailProcessor({ db: world.database.db, transport: transport(null), logger: world.logger, storage: world.storage });
    const shutdown = new AbortController();
    const ran = processor({ mailId }, context(shutdown.signal));
    setTimeout(() => shutdown.abort(), 500);
    const error = (await ran.then(() => null, (e: unknown) => e)) as Error | null;
    expect(String((error?.cause as Error | undefined)?.message)).toMatch(/database unavailable/);
    await unblock();
    expect(await sentAt(mailId)).toBeNull();
  });
});
