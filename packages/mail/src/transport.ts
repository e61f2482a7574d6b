import { access, constants, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { assertPlainAddress, toHeaderValue } from './sanitize.ts';

export interface MailMessage {
  /** One plain address (no display name, no list). */
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Files sent with the message (read from storage by the mail job). */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  send(msg: MailMessage): Promise<{ messageId: string }>;
  /** smtp: connects and authenticates; outbox: the folder exists and is writable. */
  verify(): Promise<void>;
  close(): void;
}

export interface MailTransportConfig {
  /** e.g. `smtps://user:pass@smtp.example.com:465`; absent → `.eml` files in `outboxDir`. */
  smtpUrl?: string;
  outboxDir: string;
  /** Sender, e.g. `"IP Portal" <no-reply@example.com>` (trusted configuration, not user input). */
  from: string;
}

/** SMTP when `smtpUrl` is set, otherwise RFC 5322 `.eml` files in `outboxDir` (embedded mode). */
export function createMailTransport(config: MailTransportConfig): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl, config.from) : outboxTransport(config.outboxDir, config.from);
}

/**
 * Nodemailer is loaded with the first message (or check): most processes that hold a transport send
 * mail rarely (the embedded API) or not at all before their first job.
 */
function lazyTransporter<T extends Transporter>(create: (mailer: typeof import('nodemailer')) => T): { get(): Promise<T>; close(): void } {
  let made: T | undefined;
  let making: Promise<T> | undefined;
  return {
    get: () =>
      (making ??= import('nodemailer').then((mailer) => {
        made = create(mailer);
        return made;
      })),
    close: () => made?.close(),
  };
}

function smtpTransport(smtpUrl: string, from: string): MailTransport {
  // Short timeouts: a hung SMTP server should fail the job (and let the queue retry), not pin a worker.
  const transporter = lazyTransporter((mailer) =>
    mailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    }),
  );
  return {
    kind: 'smtp',
    send: async (msg) => {
      const info = await (await transporter.get()).sendMail(toNodemailer(msg, from));
      return { messageId: info.messageId };
    },
    verify: async () => {
      await (await transporter.get()).verify();
    },
    close: () => transporter.close(),
  };
}

function outboxTransport(outboxDir: string, from: string): MailTransport {
  const transporter = lazyTransporter((mailer) =>
    mailer.createTransport({
      streamTransport: true,
      buffer: true,
      newline: 'windows', // CRLF, as RFC 5322 requires
    }),
  );
  return {
    kind: 'outbox',
    send: async (msg) => {
      const info = await (await transporter.get()).sendMail(toNodemailer(msg, from));
      if (!Buffer.isBuffer(info.message)) throw new Error('stream transport did not buffer the message');
      await mkdir(outboxDir, { recursive: true });
      const file = path.join(outboxDir, `${fileTimestamp(new Date())}-${fileSafe(info.messageId)}.eml`);
      // Write then rename, so anything watching the folder never reads half a message.
      await writeFile(`${file}.part`, info.message, { mode: 0o600 });
      await rename(`${file}.part`, file);
      return { messageId: info.messageId };
    },
    verify: async () => {
      await mkdir(outboxDir, { recursive: true });
      await access(outboxDir, constants.W_OK);
    },
    close: () => transporter.close(),
  };
}

function toNodemailer(msg: MailMessage, from: string): SendMailOptions {
  return {
    from,
    to: assertPlainAddress(msg.to, 'recipient'),
    ...(msg.replyTo ? { replyTo: assertPlainAddress(msg.replyTo, 'reply-to') } : {}),
    subject: toHeaderValue(msg.subject),
    text: msg.text,
    ...(msg.html ? { html: msg.html } : {}),
    ...(msg.attachments && msg.attachments.length > 0
      ? { attachments: msg.attachments.map((a) => ({ filename: toHeaderValue(a.filename, 255), contentType: a.contentType, content: a.content })) }
      : {}),
    // Keep the envelope equal to `to`: nothing else can ever receive the message.
    envelope: { from: envelopeAddress(from), to: msg.to },
  };
}

/** The bare address out of `"Name" <addr>` or `addr`. */
function envelopeAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from;
}

/** 2026-11-21T11-28-34-123Z: sortable and valid on every file system. */
function fileTimestamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

function fileSafe(messageId: string): string {
  return messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._@-]/g, '_');
}
