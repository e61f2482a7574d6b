import { describe, expect, it } from 'vitest';
import { formatBytes } from '../src/lib/files.ts';

describe('formatBytes', () => {
  it('writes sizes in the page language: octets and a decimal comma in French', () => {
    expect(formatBytes(634, 'en')).toBe('634\u00A0B');
    expect(formatBytes(634, 'fr')).toBe('634\u00A0o');
    expect(formatBytes(1536, 'en')).toBe('1.5\u00A0kB');
    expect(formatBytes(1536, 'fr')).toBe('1,5\u00A0ko');
    expect(formatBytes(25 * 1024 * 1024, 'en')).toBe('25.0\u00A0MB');
    expect(formatBytes(25 * 1024 * 1024, 'fr-FR')).toBe('25,0\u00A0Mo');
  });
});
