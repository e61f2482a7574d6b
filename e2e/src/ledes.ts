import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { portal } from './browser.ts';
import { freshSample, VALID_SAMPLE } from './a11y.ts';

/**
 * A LEDES agent logged in on `page` (one client id, so no recipient to choose) checks a copy of `sample` named
 * `name` through the API and waits for its verdict; answers the finished run's id (for /result-ledes?runs=…).
 */
export async function checkLedes(page: Page, idClient: string, name: string, sample = VALID_SAMPLE): Promise<string> {
  const response = await page.request.post('/api/ledes/file/patent/PAR?wait=60', {
    headers: { 'x-api-key': 'local-dev-api-key', origin: portal().baseUrl },
    multipart: { type: 'patent', office: 'PAR', id_client: idClient, file: { name, mimeType: 'text/plain', buffer: readFileSync(freshSample(sample)) } },
    timeout: 90_000,
  });
  if (response.status() !== 200) throw new Error(`LEDES upload ${name}: ${response.status()} ${await response.text()}`);
  const body = (await response.json()) as { runs: { _id: string; state: string }[] };
  const run = body.runs[0];
  if (!run || run.state === 'in_progress') throw new Error(`LEDES upload ${name}: not finished within 60 s`);
  return run._id;
}
