import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { LEDES_ERROR_CODES } from '../src/index.ts';

it('every reason a run in Error carries is translated in both languages', () => {
  for (const lang of ['en', 'fr']) {
    const texts = JSON.parse(readFileSync(new URL(`../../i18n/locales/${lang}/ledes.json`, import.meta.url), 'utf8')) as { result: { errorReason: Record<string, string> } };
    for (const code of Object.values(LEDES_ERROR_CODES)) expect(texts.result.errorReason[code], `${lang}: ${code}`).toBeTruthy();
  }
});
