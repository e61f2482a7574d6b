import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser, type AddressObject } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailAddressError, createMailTransport, renderMail } from '../src/index.ts';
import { startSmtpSink } from '../test-support/smtp-sink.ts';

const FROM = '"IP Portal" <no-reply@portal.example.com>';
const LINK = 'https://portal.example.com/first?token=t0k3n';

const addresses = (value: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) => a.value.map((v) => v.address));

describe('outbox transport (no SMTP configured)', () => {
  let outboxDir: string;
  beforeAll(async () => {
    outboxDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'mail-outbox-')), 'outbox');
  });
  afterAll(() => rm(path.dirname(outboxDir), { recursive: true, force: true }));

  it('verify creates the folder; send writes one parseable .eml per message', async () => {
    const transport = createMailTransport({ outboxDir, from: FROM });
    expect(transport.kind).toBe('outbox');
    await transport.verify();
    const rendered = renderMail('first_connection', 'fr', { link: LINK, name: 'Élise Dupont' });
    const { messageId } = await transport.send({ to: 'elise@example.com', ...rendered });
    transport.close();

    const files = (await readdir(outboxDir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-.+\.eml$/);
    const raw = await readFile(path.join(outboxDir, files[0]!));
    expect(raw.includes('\r\n')).toBe(true);

    const parsed = await simpleParser(raw);
    expect(parsed.messageId).toBe(messageId);
    expect(parsed.subject).toBe('Votre compte sur le Portail PI est prêt');
    expect(addresses(parsed.to)).toEqual(['elise@example.com']);
    expect(parsed.from?.value[0]?.address).toBe('no-reply@portal.example.com');
    expect(parsed.text).toContain('Bonjour Élise Dupont,');
    expect(parsed.text).toContain(LINK);
    expect(parsed.html).toContain(`href="${LINK}"`);
  });
});

describe('SMTP transport (real smtp-server sink)', () => {
  let sink: Awaited<ReturnType<typeof startSmtpSink>>;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(() => sink.stop());

  it('verifies credentials and delivers recipient, subject and body', async () => {
    const transport = createMailTransport({ smtpUrl: sink.url, outboxDir: '/nonexistent', from: FROM });
    expect(transport.kind).toBe('smtp');
    await transport.verify();
    const rendered = renderMail('reset_password', 'en', { link: LINK });
    // The sink is shared by the file's tests, which may run in any order.
    const before = sink.received.length;
    await transport.send({ to: 'user@example.com', ...rendered });
    transport.close();

    expect(sink.received).toHaveLength(before + 1);
    const mail = sink.received[before];
    expect(mail!.rcptTo).toEqual(['user@example.com']);
    expect(mail!.from).toBe('no-reply@portal.example.com');
    const parsed = await simpleParser(mail!.raw);
    expect(parsed.subject).toBe('Reset your IP Portal password');
    expect(parsed.text).toContain(LINK);
    expect(parsed.text).toContain('10 minutes');
  });

  it('verify fails with wrong credentials', async () => {
    const url = sink.url.replace('s3cret', 'wrong');
    const transport = createMailTransport({ smtpUrl: url, outboxDir: '/nonexistent', from: FROM });
    await expect(transport.verify()).rejects.toThrow();
    transport.close();
  });

  it('VAL-09: CR/LF in subject or reply-to cannot inject headers or recipients', async () => {
    const transport = createMailTransport({ smtpUrl: sink.url, outboxDir: '/nonexistent', from: FROM });
    const before = sink.received.length;
    await transport.send({
      to: 'staff@example.com',
      subject: 'Hello\r\nBcc: victim@example.com\r\nX-Injected: yes',
      text: 'body',
      replyTo: 'client@example.com',
    });
    const delivered = sink.received[before]!;
    expect(delivered.rcptTo).toEqual(['staff@example.com']);
    const parsed = await simpleParser(delivered.raw);
    expect(parsed.headers.has('bcc')).toBe(false);
    expect(parsed.headers.has('x-injected')).toBe(false);
    expect(parsed.subject).toBe('Hello Bcc: victim@example.com X-Injected: yes');
    expect(addresses(parsed.replyTo)).toEqual(['client@example.com']);

    for (const hostile of ['client@example.com\r\nBcc: victim@example.com', 'a@example.com, b@example.com', 'Name <a@example.com>']) {
      await expect(transport.send({ to: 'staff@example.com', subject: 's', text: 't', replyTo: hostile })).rejects.toBeInstanceOf(MailAddressError);
      await expect(transport.send({ to: hostile, subject: 's', text: 't' })).rejects.toBeInstanceOf(MailAddressError);
    }
    expect(sink.received).toHaveLength(before + 1);
    transport.close();
  });
});
