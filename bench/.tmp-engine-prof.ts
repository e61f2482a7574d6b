import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { checkSpreadsheet } from '../packages/annuities/src/index.ts';
import { BENCH_TODAY, workbookFixture } from './annuity-fixtures.ts';
const file = await workbookFixture(100_000);
const buf = await readFile(file);
for (let i = 0; i < 2; i++) {
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const out = createWriteStream('/tmp/engine-out.xlsx');
  const r = await checkSpreadsheet(buf, file, { today: BENCH_TODAY, out });
  out.end(); await finished(out);
  const c = process.cpuUsage(c0);
  console.log(r.ok, ((performance.now() - t0) / 1000).toFixed(2), 's', ((c.user + c.system) / 1e6).toFixed(2), 'CPU-s', (process.memoryUsage().rss / 1e6).toFixed(0), 'MB');
}
