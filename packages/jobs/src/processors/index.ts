export { createCheckLedesProcessor, EMBEDDED_FINDINGS_PER_STATEMENT, markLedesRunFailed, publishRun, type CheckLedesDeps } from './check-ledes.ts';
export { createSendMailProcessor, type SendMailDeps } from './send-mail.ts';
