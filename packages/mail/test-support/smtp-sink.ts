import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  rcptTo: string[];
  raw: string;
}

/**
 * Test support: a real SMTP server (smtp-server) on a free loopback port that requires the given
 * credentials and keeps every message it accepts, raw, with its envelope. `url` carries the
 * credentials, ready for `createMailTransport({ smtpUrl })` or an `SMTP_URL` variable.
 */
export async function startSmtpSink(
  credentials = { user: 'portal', pass: 's3cret' },
  // A fixed port and a shared list let a test stop the sink and start it again where clients expect it.
  options: { port?: number; received?: ReceivedMail[] } = {},
) {
  const received: ReceivedMail[] = options.received ?? [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true, // loopback test only
    logger: false,
    closeTimeout: 1000, // stop() drops open connections promptly, as an outage would
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid credentials'));
    },
    onData(stream, session, callback) {
      text(stream).then(
        (raw) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            raw,
          });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
