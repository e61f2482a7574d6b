import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LEDES_ERROR_CODES } from '../src/index.ts';

it('every reason a run in Error carries is translated in both languages', () => {
  for (const lang of ['en', 'fr']) {
    const texts = JSON.parse(readFileSync(new URL(`../../i18n/locales/${lang}/ledes.json`, import.meta.url), 'utf8')) as { result: { errorReason: Record<string, string> } };
    for (const code of Object.values(LEDES_ERROR_CODES)) expect(texts.result.errorReason[code], `${lang}: ${code}`).toBeTruthy();
  }
});

it('every reason a receipt upload ends in Error with, and every reason an entry is refused for, is translated in both languages', async () => {
  const { RECEIPT_REFUSALS, RECEIPT_UPLOAD_ERRORS } = await import('@portal/contracts');
  const { RECEIPT_ERROR_CODES } = await import('../src/index.ts');
  for (const lang of ['en', 'fr']) {
    const texts = JSON.parse(readFileSync(new URL(`../../i18n/locales/${lang}/receipts.json`, import.meta.url), 'utf8')) as { uploads: { errorReason: Record<string, string>; refusal: Record<string, string> } };
    for (const code of [...RECEIPT_UPLOAD_ERRORS, ...Object.values(RECEIPT_ERROR_CODES)]) expect(texts.uploads.errorReason[code], `${lang}: ${code}`).toBeTruthy();
    for (const code of RECEIPT_REFUSALS) expect(texts.uploads.refusal[code], `${lang}: ${code}`).toBeTruthy();
  }
});
