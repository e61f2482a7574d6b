import { serverT, type Locale } from '@portal/i18n';
import { MailTemplateError } from './errors.ts';
import { escapeHtml, toHeaderValue, toMultilineText } from './sanitize.ts';

export type MailTemplate =
  | 'reset_password'
  | 'first_connection'
  | 'contact'
  | 'new_case'
  | 'patent_instructions_confirmation'
  | 'patent_reminder'
  | 'patent_submission_rejected'
  | 'ledes_refused'
  | 'ledes_delivered'
  | 'ledes_digest'
  | 'renewal_call';
export const MAIL_TEMPLATES: readonly MailTemplate[] = [
  'reset_password',
  'first_connection',
  'contact',
  'new_case',
  'patent_instructions_confirmation',
  'patent_reminder',
  'patent_submission_rejected',
  'ledes_refused',
  'ledes_delivered',
  'ledes_digest',
  'renewal_call',
];

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface TemplateSpec {
  /** Parameters the caller must pass. */
  required: readonly string[];
  /** Values used when the caller passes none (the durations the spec fixes). */
  defaults: Readonly<Record<string, string>>;
  /** Parameters rendered as a clickable link in HTML; must be absolute http(s) URLs. */
  links: readonly string[];
  /** Parameters allowed to span several lines (all others are flattened to one line). */
  multiline: readonly string[];
  /** Mails to end users get greeting, signature and the "do not reply" notice; internal ones do not. */
  toEndUser: boolean;
}

const SPECS: Record<MailTemplate, TemplateSpec> = {
  reset_password: { required: ['link'], defaults: { minutes: '10' }, links: ['link'], multiline: [], toEndUser: true },
  first_connection: { required: ['link'], defaults: { hours: '72' }, links: ['link'], multiline: [], toEndUser: true },
  contact: { required: ['mail', 'issue', 'topic', 'details'], defaults: {}, links: [], multiline: ['details'], toEndUser: false },
  // The new-case file to support (attached) and the sender's copy: who sent which file.
  new_case: { required: ['name', 'mail', 'filename'], defaults: {}, links: [], multiline: [], toEndUser: false },
  // One line per instruction given: reference, application number, country, due date, instruction title.
  patent_instructions_confirmation: { required: ['count', 'instructions'], defaults: {}, links: [], multiline: ['instructions'], toEndUser: true },
  // The reminder job's grouped mail: the step's name, one line per patent (`patent_reminder.line`), the total of the fees.
  patent_reminder: { required: ['step', 'count', 'rows', 'total'], defaults: {}, links: [], multiline: ['rows'], toEndUser: true },
  patent_submission_rejected: { required: ['reference', 'reason'], defaults: {}, links: [], multiline: ['reason'], toEndUser: true },
  // Opted in from the account (issue 31 §3): a LEDES file refused, delivered to step 2; an admin's daily digest.
  // `settings` is the account's notifications page, where the mail is turned off.
  ledes_refused: { required: ['filename', 'errors', 'link', 'settings'], defaults: {}, links: ['link', 'settings'], multiline: [], toEndUser: true },
  ledes_delivered: { required: ['filename', 'link', 'settings'], defaults: {}, links: ['link', 'settings'], multiline: [], toEndUser: true },
  ledes_digest: { required: ['day', 'runs', 'accepted', 'refused', 'failed', 'findings', 'link', 'settings'], defaults: {}, links: ['link', 'settings'], multiline: ['findings'], toEndUser: true },
  // A renewal call's step (issue 30 §3): the client code, the step, one line per annuity, the totals per currency; the call as PDF and xlsx attached.
  renewal_call: { required: ['step', 'client', 'count', 'rows', 'totals', 'before'], defaults: {}, links: [], multiline: ['rows', 'totals'], toEndUser: true },
};

// Placeholders are first rendered as private-use markers, then replaced in a single pass with the
// value encoded for the target format, so user input is never parsed by i18next nor re-scanned.
const marker = (name: string) => `\uE000${name}\uE001`;
const MARKER = /\uE000(\w+)\uE001/g;

/**
 * Renders a transactional e-mail in the recipient's language. Texts live in
 * `@portal/i18n` (`emails` namespace); every parameter is HTML-escaped in `html`, and flattened to
 * one line wherever it could reach a header.
 */
export function renderMail(template: MailTemplate, locale: Locale, params: Record<string, string>): RenderedMail {
  const spec = SPECS[template];
  const values = prepareValues(template, spec, params);
  const t = serverT(locale);
  const translate = (key: string): string => {
    const markers = Object.fromEntries(Object.keys(values).map((name) => [name, marker(name)]));
    const result = t(key, { ns: 'emails', ...markers });
    if (result === key) throw new MailTemplateError(`Missing translation emails:${key} (${locale})`);
    return result;
  };

  const subjectTemplate = translate(`${template}.subject`);
  const bodyTemplate = translate(`${template}.body`);
  const name = values['name'];
  const greeting = spec.toEndUser ? translate(name ? 'layout.greeting_named' : 'layout.greeting') : undefined;
  const closing = spec.toEndUser ? [translate('layout.signature'), translate('layout.automated')] : [];

  const fillText = (text: string) => text.replace(MARKER, (_m, key: string) => values[key] ?? '');
  const fillHtml = (text: string) =>
    escapeHtml(text).replace(MARKER, (_m, key: string) => {
      const value = escapeHtml(values[key] ?? '');
      return spec.links.includes(key) ? `<a href="${value}" style="color:#1a4d8f">${value}</a>` : value;
    });

  const blocks = [greeting, bodyTemplate, ...closing].filter((block): block is string => block !== undefined);
  const subject = toHeaderValue(fillText(subjectTemplate));
  return {
    subject,
    text: `${blocks.map(fillText).join('\n\n')}\n`,
    html: htmlDocument(locale, subject, blocks.map(fillHtml)),
  };
}

function prepareValues(template: MailTemplate, spec: TemplateSpec, params: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = { ...spec.defaults };
  for (const [key, raw] of Object.entries(params)) {
    if (typeof raw !== 'string' || !/^\w+$/.test(key)) continue;
    values[key] = spec.multiline.includes(key) ? toMultilineText(raw).trim() : toHeaderValue(raw, 2000);
  }
  for (const key of spec.required) {
    if (!values[key]) throw new MailTemplateError(`Template ${template} needs the parameter "${key}"`);
  }
  for (const key of spec.links) assertHttpUrl(values[key] ?? '', template);
  return values;
}

function assertHttpUrl(value: string, template: MailTemplate): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || /\s/.test(value)) {
    throw new MailTemplateError(`Template ${template} needs an absolute http(s) link`);
  }
}

/** Escaped text blocks → minimal, inline-styled HTML that renders in every mail client. */
function htmlDocument(locale: Locale, subject: string, escapedBlocks: string[]): string {
  const paragraphs = escapedBlocks
    .flatMap((block) => block.split('\n\n'))
    .map((paragraph) => `<p style="margin:0 0 16px">${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  return `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2933">
<div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;border-radius:4px">
${paragraphs}
</div>
</body>
</html>
`;
}
