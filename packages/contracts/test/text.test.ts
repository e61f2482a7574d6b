import { describe, expect, it } from 'vitest';
import { contactBody, isCleanText, text } from '../src/index.ts';

describe('the clean-text rule', () => {
  it('accepts any well-formed text, tabs and line breaks, emoji and accents', () => {
    for (const ok of ['', 'Société Générale', 'line one\nline two\r\n\tindented', 'ok 👍', '日本語', '\u202e']) expect(isCleanText(ok), ok).toBe(true);
  });

  it('refuses NUL and other control characters, lone surrogates and decoding leftovers', () => {
    for (const bad of ['a\u0000b', '\u0007', '\u001b[31m', '\u007f', 'x\ud800', '\udc00x', '\ud83d', '\ufffd', '\uffff']) {
      expect(isCleanText(bad), JSON.stringify(bad)).toBe(false);
      expect(text().safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('keeps the field code for a value that is not a string', () => {
    const result = text({ error: 'topic_empty' }).safeParse(12);
    expect(result.error?.issues[0]?.message).toBe('topic_empty');
  });

  it('contact issue is a closed set: prototype words are refused, never looked up', () => {
    for (const issue of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const result = contactBody.safeParse({ mail: 'a@b.co', issue, topic: 'x', details: 'y' });
      expect(result.success, issue).toBe(false);
    }
  });
});
