import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { LedesRunDto } from '@portal/contracts';
import { ledesOffices, ledesProfiles, ledesRuns, mails, openDatabase, users, type DatabaseHandle } from '@portal/db';
import { testPgliteConfig } from '@portal/db/testing';
import { DEFAULT_OFFICES } from '@portal/ledes';
import { createLogger } from '@portal/logger';
import { createMailTransport, type MailTransport } from '@portal/mail';
import { BUS_EVENT, createInProcessPublisher, type BusMessage } from '@portal/realtime';
import { createStorage, type Storage } from '@portal/storage';

const SAMPLES = new URL('../../ledes/test/fixtures/samples/', import.meta.url);
/** An accepted LEDES 1998B file for PAR / patent (the API's LEDES tests use it too). */
export const VALID_98B = readFileSync(new URL('travisbashor-ledes-parser_tests-data-ledes_98B.txt', SAMPLES));

/**
 * Real storage (local driver) with switchable faults, for the fault tests: `get` can hang (a worker
 * that stops making progress) or fail, `copy` can fail; successful copies are counted per target.
 */
export class FaultyStorage implements Storage {
  readonly driver = 'local' as const;
  hangGets = false;
  failGets = 0;
  failCopies = 0;
  /** Copies that are made, but whose answer is lost (the connection drops as S3 finishes the copy). */
  loseCopyAnswers = 0;
  /** Each copy waits this long before it starts (two executions then both get past their `stat` first). */
  slowCopiesMs = 0;
  /** Awaited inside each copy, before it is made: what else can happen while a copy is under way. */
  duringCopy: (() => Promise<void>) | null = null;
  readonly copies: string[] = [];
  private hanging: Array<{ resume: () => void; fail: (error: Error) => void }> = [];
  /** Gets waiting in `hangGets`. */
  get hung(): number {
    return this.hanging.length;
  }
  constructor(private readonly inner: Storage) {}
  ensureReady() {
    return this.inner.ensureReady();
  }
  /** Treated workbooks (`ledes/treated/…`) whose put fails, its input left unread. */
  failTreatedPuts = 0;
  /** Treated workbooks' puts wait here until `writeTreated()` (the workbook written after Done, decision 182). */
  holdTreatedPuts = false;
  private heldPuts: Array<() => void> = [];
  /** Puts waiting in `holdTreatedPuts`. */
  get heldTreated(): number {
    return this.heldPuts.length;
  }
  /** Lets the held treated puts go on. */
  writeTreated() {
    this.holdTreatedPuts = false;
    for (const go of this.heldPuts.splice(0)) go();
  }
  async put(...args: Parameters<Storage['put']>) {
    if (args[0].startsWith('ledes/treated/')) {
      if (this.holdTreatedPuts) await new Promise<void>((go) => this.heldPuts.push(go));
      if (this.failTreatedPuts > 0) {
        this.failTreatedPuts -= 1;
        throw Object.assign(new Error('storage unreachable while storing the treated workbook'), { code: 'ECONNRESET' });
      }
    }
    const stored = await this.inner.put(...args);
    if (args[0].startsWith('ledes/treated/')) {
      this.treatedPuts.push(args[0]);
      // The object is stored and the put has not answered yet: what a worker stopped here leaves behind.
      await this.afterTreatedPut?.(args[0]);
    }
    return stored;
  }
  /** Runs once a treated workbook is stored, before its put answers (throwing stops the execution there). */
  afterTreatedPut: ((key: string) => Promise<void>) | undefined;
  /** Treated workbooks stored, by key, in order. */
  readonly treatedPuts: string[] = [];
  async get(key: string): Promise<Readable> {
    if (this.hangGets) await new Promise<void>((resume, fail) => this.hanging.push({ resume, fail }));
    if (this.failGets > 0) {
      this.failGets -= 1;
      throw Object.assign(new Error('storage unreachable'), { code: 'ECONNREFUSED' });
    }
    return this.inner.get(key);
  }
  stat(key: string) {
    return this.inner.stat(key);
  }
  delete(key: string) {
    return this.inner.delete(key);
  }
  list(...args: Parameters<Storage['list']>) {
    return this.inner.list(...args);
  }
  async copy(from: string, to: string): Promise<void> {
    if (this.failCopies > 0) {
      this.failCopies -= 1;
      throw Object.assign(new Error('storage unreachable during the delivery'), { code: 'ECONNRESET' });
    }
    if (this.slowCopiesMs > 0) await new Promise((resolve) => setTimeout(resolve, this.slowCopiesMs));
    await this.duringCopy?.();
    await this.inner.copy(from, to);
    this.copies.push(to);
    if (this.loseCopyAnswers > 0) {
      this.loseCopyAnswers -= 1;
      throw Object.assign(new Error('connection reset after the copy was made'), { code: 'ECONNRESET' });
    }
  }
  /** Lets every hanging `get` go on as if nothing happened. */
  resume() {
    this.hangGets = false;
    for (const { resume } of this.hanging.splice(0)) resume();
  }
  /** Fails every hanging `get` (test clean-up). */
  release() {
    this.writeTreated();
    this.hangGets = false;
    for (const { fail } of this.hanging.splice(0)) fail(new Error('released'));
  }
}

let clients = 0;
/** The accepted sample for a client of its own: its invoices are never duplicates of another run's (CON-007). */
export function acceptedFile(): Buffer {
  clients += 1;
  return Buffer.from(VALID_98B.toString('utf8').replaceAll('|00711|', `|C${clients}|`));
}

/** The real outbox transport (.eml files), with SMTP switched off and on. */
export class FaultyTransport implements MailTransport {
  readonly kind = 'outbox' as const;
  down = false;
  sent = 0;
  constructor(private readonly inner: MailTransport) {}
  async send(msg: Parameters<MailTransport['send']>[0]) {
    if (this.down) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED' });
    const info = await this.inner.send(msg);
    this.sent += 1;
    return info;
  }
  verify() {
    return this.inner.verify();
  }
  close() {
    this.inner.close();
  }
}

export interface World {
  database: DatabaseHandle;
  storage: FaultyStorage;
  transport: FaultyTransport;
  realtime: ReturnType<typeof createInProcessPublisher>;
  logger: ReturnType<typeof createLogger>;
  events: LedesRunDto[];
  root: string;
  ownerId: string;
  /** Records a reset mail, as the API does before enqueueing it. */
  createMail(): Promise<string>;
  /** Stores `content` as an original and commits an in-progress run for it (send_server on). */
  createRun(content?: Buffer): Promise<string>;
  state(runId: string): Promise<{ state: string; errorCode: string | null; deliveredAt: Date | null; attempts: number }>;
  /** Runs still in progress: every test must end with none. */
  inProgress(): Promise<string[]>;
  /** Files under the storage root (partial uploads included). */
  files(): string[];
  close(): Promise<void>;
}

export async function createWorld(): Promise<World> {
  const database = openDatabase(testPgliteConfig());
  await database.migrate();
  const db = database.db;
  await db.insert(ledesOffices).values(DEFAULT_OFFICES.map((o, position) => ({ code: o.code, labelEn: o.label_en, labelFr: o.label_fr, position })));
  await db
    .insert(ledesProfiles)
    .values(DEFAULT_OFFICES.flatMap((o) => o.profiles.map((p) => ({ office: o.code, type: p.type, profile: p as unknown as Record<string, unknown> }))))
    .onConflictDoNothing();
  const [owner] = await db.insert(users).values({ companyAgent: 'Agent', email: `agent-${randomUUID()}@example.com`, passwordHash: 'x', langue: 'en' }).returning();
  const root = mkdtempSync(path.join(tmpdir(), 'jobs-test-'));
  const storage = new FaultyStorage(await createStorage({ driver: 'local', root }));
  await storage.ensureReady();
  const realtime = createInProcessPublisher();
  const events: LedesRunDto[] = [];
  realtime.bus.on(BUS_EVENT, (message: BusMessage) => {
    if (message.event === 'ledes:run' && message.room.startsWith('user:')) events.push(message.args[0] as LedesRunDto);
  });
  const logger = createLogger({ level: 'silent', name: 'jobs-test' });
  const transport = new FaultyTransport(createMailTransport({ outboxDir: path.join(root, 'outbox'), from: 'Portal <no-reply@example.com>' }));

  return {
    database,
    storage,
    transport,
    realtime,
    logger,
    events,
    root,
    ownerId: owner!.id,
    async createMail() {
      const [mail] = await db
        .insert(mails)
        .values({ recipient: 'user@example.com', template: 'reset_password', locale: 'en', params: { link: 'https://portal.example.com/reset?token=x' } })
        .returning();
      return mail!.id;
    },
    async createRun(content = acceptedFile()) {
      const key = `ledes/original/${randomUUID()}/file.txt`;
      await storage.put(key, content);
      const [run] = await db
        .insert(ledesRuns)
        .values({ ownerId: owner!.id, name: `run_${randomUUID()}`, originalName: 'file.txt', originalKey: key, size: content.length, sha256: 'x', office: 'PAR', type: 'patent', sendServer: true, idClient: `client-${randomUUID()}` })
        .returning();
      return run!.id;
    },
    async state(runId) {
      const [run] = await db.select().from(ledesRuns).where(eq(ledesRuns.id, runId));
      return { state: run!.state, errorCode: run!.errorCode, deliveredAt: run!.deliveredAt, attempts: run!.attempts };
    },
    async inProgress() {
      const rows = await db.select({ id: ledesRuns.id }).from(ledesRuns).where(eq(ledesRuns.state, 'in_progress'));
      return rows.map((r) => r.id);
    },
    files() {
      return (readdirSync(root, { recursive: true }) as string[]).filter((name) => /\.[a-z]+$/i.test(name));
    },
    async close() {
      storage.release();
      transport.close();
      await realtime.close();
      await database.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export async function waitFor(condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
