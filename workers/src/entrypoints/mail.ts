import { createMailTransport } from '@portal/mail';
import { mailJob } from '@portal/jobs';
import { cachedProbe } from '@portal/ops';
import { createStorage } from '@portal/storage';
import { runWorker } from './run-worker.ts';

/** The mail worker process: consumes the `mail` queue; scale it by running more of these. */
await runWorker(mailJob, async ({ config, database, logger }) => {
  const transport = createMailTransport(config.mail);
  // The new-case file and other attachments are read from storage.
  const storage = await createStorage(config.storage);
  // Ready when the SMTP server greets and takes our login (nodemailer's verify), bounded and cached.
  return { ports: { db: database.db, transport, logger, storage }, close: () => transport.close(), readiness: { smtp: cachedProbe(() => transport.verify()) } };
});
