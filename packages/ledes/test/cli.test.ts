import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/ledes.mjs', import.meta.url));
const SAMPLES = fileURLToPath(new URL('./fixtures/samples/', import.meta.url));

function ledes(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('ledes CLI', { timeout: 30_000 }, () => {
  it('exit 0 and the result entity as JSON for an accepted file', () => {
    const r = ledes('check', `${SAMPLES}travisbashor-ledes-parser_tests-data-ledes_98B.txt`, '--type', 'patent', '--office', 'PAR', '--json');
    expect(r.code).toBe(0);
    const entity = JSON.parse(r.stdout);
    expect(Object.keys(entity)).toEqual(['filename', 'format_ok', 'errors', 'warnings']);
    expect(entity.warnings[0].items[0].code_ledes).toBe('FMT-006');
  });

  it('exit 1 and a human summary for a refused file', () => {
    const r = ledes('check', `${SAMPLES}mikewagner-ledes_parser_spec-fixtures-ledes_with_invalid_format.txt`, '--type', 'patent', '--office', 'PAR');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('REFUSED');
    expect(r.stdout).toContain('FMT-001');
  });

  it('exit 2 on usage errors', () => {
    expect(ledes('check', `${SAMPLES}x.txt`, '--type', 'patent', '--office', 'PAR').code).toBe(2);
    expect(ledes('check', `${SAMPLES}mikewagner-ledes_parser_spec-fixtures-ledes.txt`, '--type', 'copyright', '--office', 'PAR').code).toBe(2);
    expect(ledes('check', `${SAMPLES}mikewagner-ledes_parser_spec-fixtures-ledes.txt`, '--type', 'patent', '--office', 'XXX').code).toBe(2);
    expect(ledes('verify').code).toBe(2);
  });
});
