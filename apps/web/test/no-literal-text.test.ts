import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every text a user reads is in both locales: the web writes none of its own. The keys' parity is
 * `packages/i18n/test/keys.test.ts`; this test reads the web's sources for text written in place of a
 * translation, in any state of any screen (the e2e flows see only the states they reach, decision 236):
 * a JSX text node, a text prop given a string (`title="…"`, `placeholder={'…'}`), a string child
 * (`{'…'}`), and the visible fields of an object literal (a notification's `title` and `message`).
 * Words only: punctuation, digits and a single letter are left alone.
 */
const SRC = join(import.meta.dirname, '..', 'src');

/** Props and object fields whose string is shown to the user (or read out by a screen reader). */
const TEXT_NAMES = new Set(['title', 'placeholder', 'label', 'alt', 'description', 'message', 'aria-label', 'aria-description', 'aria-valuetext', 'confirmLabel', 'cancelLabel']);
const WORD = /\p{L}{2,}/u;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const stringOf = (node: ts.Node | undefined): string | undefined =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;

/** The texts written in place of a translation in one source, as `line: what "text"`. */
function literalTexts(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, what: string, value: string) => {
    if (WORD.test(value)) found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${what} ${JSON.stringify(value.trim())}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) report(node, 'text', node.text);
    else if (ts.isJsxAttribute(node) && TEXT_NAMES.has(node.name.getText())) {
      const init = node.initializer;
      const value = stringOf(init) ?? (init && ts.isJsxExpression(init) ? stringOf(init.expression) : undefined);
      if (value !== undefined) report(node, `prop ${node.name.getText()}`, value);
    } else if (ts.isJsxExpression(node) && !ts.isJsxAttribute(node.parent)) {
      const value = stringOf(node.expression);
      if (value !== undefined) report(node, 'child', value);
    } else if (ts.isPropertyAssignment(node) && TEXT_NAMES.has(node.name.getText().replace(/^['"]|['"]$/g, ''))) {
      const value = stringOf(node.initializer);
      if (value !== undefined) report(node, `field ${node.name.getText()}`, value);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the web writes no text of its own', () => {
  it('no source of apps/web shows a text that is not a translation', () => {
    const findings = sources(SRC).flatMap((file) => literalTexts(file, readFileSync(file, 'utf8')).map((f) => `${relative(SRC, file)}:${f}`));
    expect(findings).toEqual([]);
  });

  it('the check itself finds each form, and leaves translations, test ids and punctuation alone', () => {
    const sample = [
      'export const A = () => <p>Save the file</p>;',
      'export const B = () => <input placeholder="Search" />;',
      "export const C = () => <Button aria-label={'Close'} />;",
      "export const D = () => <span>{'Nothing yet'}</span>;",
      "notifications.show({ title: 'Saved', message: `The file is saved` });",
    ].join('\n');
    expect(literalTexts('sample.tsx', sample)).toEqual([
      '1: text "Save the file"',
      '2: prop placeholder "Search"',
      '3: prop aria-label "Close"',
      '4: child "Nothing yet"',
      '5: field title "Saved"',
      '5: field message "The file is saved"',
    ]);
    const allowed = [
      "export const E = () => <p data-testid=\"file-row\" title={t('files.title')}>{t('files.empty')} — {count} / 3</p>;",
      "notifications.show({ color: 'red', title: t('saved'), message: t('saved_body', { name }) });",
      "const code = { error: 'error-ecb-file' };",
    ].join('\n');
    expect(literalTexts('allowed.tsx', allowed)).toEqual([]);
  });
});
