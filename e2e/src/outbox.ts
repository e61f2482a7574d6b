import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  headers: string;
  to: string;
  subject: string;
  /** All text of the message with transfer encodings undone (text and html parts). */
  body: string;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeMimeWords(s: string): string {
  return s.replace(/=\?([^?]+)\?([BQbq])\?([^?]*)\?=/g, (_m, _cs: string, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

/** Undoes quoted-printable and base64 in every part; good enough for the portal's own messages. */
function decodeParts(raw: string): string {
  const chunks = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  return chunks
    .map((chunk) => {
      const split = chunk.search(/\r?\n\r?\n/);
      if (split < 0) return chunk;
      const head = chunk.slice(0, split);
      const body = chunk.slice(split).trim();
      if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) return decodeQuotedPrintable(body);
      if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      return body;
    })
    .join('\n');
}

function header(headers: string, name: string): string {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded);
  return m ? decodeMimeWords(m[1] ?? '').trim() : '';
}

export function readOutbox(dataDir: string): OutboxMail[] {
  const dir = path.join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => {
      const raw = readFileSync(path.join(dir, f), 'utf8');
      const split = raw.search(/\r?\n\r?\n/);
      const headers = split < 0 ? raw : raw.slice(0, split);
      return { file: f, headers, to: header(headers, 'To'), subject: header(headers, 'Subject'), body: decodeParts(raw) };
    });
}

/** Polls the outbox until a mail matching `predicate` lands (mail is sent by a queue worker). */
export async function waitForMail(dataDir: string, predicate: (m: OutboxMail) => boolean, timeoutMs = 20_000): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readOutbox(dataDir).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = readOutbox(dataDir).map((m) => `${m.to} | ${m.subject}`);
      throw new Error(`no matching mail in the outbox after ${timeoutMs} ms; seen: ${JSON.stringify(seen)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The set-your-password / reset link of a mail, as a path relative to the portal. */
export function resetLinkIn(mail: OutboxMail): string {
  const m = /https?:\/\/[^\s"'<>]+\/password_reset\?[^\s"'<>]+/.exec(mail.body);
  if (!m) throw new Error(`no /password_reset link in mail ${mail.file}`);
  const url = new URL(m[0].replace(/&amp;/g, '&'));
  return `${url.pathname}${url.search}`;
}
