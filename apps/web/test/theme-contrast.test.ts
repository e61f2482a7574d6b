import { describe, expect, it } from 'vitest';
import { DIMMED, ERROR, FOCUS_RING, FOCUS_RING_ON_DARK, theme } from '../src/app/theme.ts';

/** WCAG 2.x relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

const WHITE = '#ffffff';
const colors = theme.colors!;
const gray = ['#f8f9fa', '#f1f3f5', '#e9ecef'];
/** The tinted boxes text sits on: brand and accent tints (admin box, drop zone, selected cards), grey 0–2. */
const SURFACES = [WHITE, ...gray, colors.brand![0], colors.brand![1], colors.accent![0]];

describe('theme contrast (issue 9, WCAG 1.4.3 / 1.4.11)', () => {
  it('dimmed text reaches 4.5:1 on white, grey and the tinted boxes', () => {
    for (const bg of SURFACES) expect(contrast(DIMMED, bg), `dimmed on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it('field errors reach 4.5:1 on white and on the red tint', () => {
    for (const bg of [WHITE, gray[0]!, colors.red![0], colors.red![1]]) expect(contrast(ERROR, bg), `error on ${bg}`).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['red', 'orange', 'teal', 'green', 'yellow', 'brand'])('%s: shades 7–9 are readable text on white and grey 0, shade 9 on its light badge (shade 1)', (name) => {
    const p = colors[name]!;
    for (const shade of [7, 8, 9]) {
      for (const bg of [WHITE, gray[0]!]) expect(contrast(p[shade]!, bg), `${name}.${shade} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      // A filled button (shade 7) carries white text.
      expect(contrast(p[7], WHITE)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrast(p[9], p[1]), `${name}.9 on ${name}.1`).toBeGreaterThanOrEqual(4.5);
    expect(contrast(p[9], p[0]), `${name}.9 on ${name}.0`).toBeGreaterThanOrEqual(4.5);
  });

  it('the focus ring reaches 3:1 on the light surfaces and on the dark footer', () => {
    for (const bg of SURFACES) expect(contrast(FOCUS_RING, bg), `ring on ${bg}`).toBeGreaterThanOrEqual(3);
    expect(contrast(FOCUS_RING_ON_DARK, colors.brand![9])).toBeGreaterThanOrEqual(3);
  });
});
