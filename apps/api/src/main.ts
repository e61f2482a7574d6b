import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '@portal/config';
import { DatabaseInUseError } from '@portal/db';
import { createPortal, type Portal } from './bootstrap.ts';

/** The API process. With no configuration at all it is the whole portal (embedded mode). */
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

let portal: Portal;
try {
  // The embedded database's thread stopping unasked is fatal (logged by the portal): exit, the supervisor restarts.
  portal = await createPortal(config, { onFatal: () => process.exit(1) });
} catch (error) {
  // Another process has the embedded database open: its message names it and says what to do.
  if (error instanceof DatabaseInUseError || error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const url = await portal.listen();
const publicUrl = config.http.publicUrl === `http://localhost:${config.http.port}` ? url : config.http.publicUrl;

const lines = [`Portal ready on ${publicUrl}`, `Admin login: ${portal.admin.email}`];
if (portal.admin.generatedPassword) {
  lines.push(`Admin password (generated, shown once): ${portal.admin.generatedPassword}`);
  if (config.database.driver === 'pglite') {
    // The embedded mode is a single-user machine: keep the generated password where its owner can find it.
    mkdirSync(config.dataDir, { recursive: true });
    const file = path.join(config.dataDir, 'admin-credentials.txt');
    writeFileSync(file, `${portal.admin.email}\n${portal.admin.generatedPassword}\n`, { mode: 0o600 });
    lines.push(`(also saved to ${file})`);
  }
} else if (!portal.admin.created) {
  lines.push(`Admin password: the one set at first start (ADMIN_PASSWORD or ${path.join(config.dataDir, 'admin-credentials.txt')})`);
}
if (config.mfa.requiredForAdmins) lines.push('Admins set up two-step verification (an authenticator app) at their first login.');
console.log(lines.join('\n'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  portal.ctx.logger.info({ signal }, 'stopping');
  const force = setTimeout(() => process.exit(1), 30_000);
  force.unref();
  await portal.close();
  process.exit(0);
}
function stopOn(signal: NodeJS.Signals) {
  stop(signal).catch((error: unknown) => {
    portal.ctx.logger.error({ err: error }, 'graceful stop failed');
    process.exit(1);
  });
}
process.on('SIGTERM', () => stopOn('SIGTERM'));
process.on('SIGINT', () => stopOn('SIGINT'));
process.on('unhandledRejection', (error) => portal.ctx.logger.error({ err: error }, 'unhandled rejection'));
