/**
 * Runs an entrypoint under the V8 CPU profiler (`--cpu-prof` is refused in NODE_OPTIONS, and the
 * bench starts its processes through the test support): PROFILED_ENTRY names the entry, the profile
 * is written to CPU_PROF_DIR when the process exits. Open it in Chrome's DevTools or speedscope.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const entry = process.env.PROFILED_ENTRY!;
const dir = process.env.CPU_PROF_DIR!;
const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 1000 });
session.post('Profiler.start');
process.once('exit', () => {
  // The same-thread inspector session answers synchronously, so this runs to the end before exit.
  session.post('Profiler.stop', (error, result) => {
    if (error) return;
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${path.basename(entry, '.ts')}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
  });
});
await import(pathToFileURL(path.resolve(entry)).href);
