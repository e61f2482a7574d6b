/**
 * What a French or English proof-reader checks, as functions: used by the locale test here and by the
 * LEDES catalogue's test (packages/ledes/test). docs/decisions.md: decision 43.
 */
export const NNBSP = '\u202F';
export const NBSP = '\u00A0';

/** The prose of a text: interpolation placeholders and URLs are not prose and are blanked out. */
export function prose(value: string): string {
  return value.replace(/\{\{[^}]*\}\}/g, 'X').replace(/https?:\/\/\S+/g, 'X');
}

/** Every way a text breaks a rule, as readable strings (empty when the text is clean). */
export function frenchFaults(value: string): string[] {
  const text = prose(value);
  const faults: string[] = [];
  for (const m of text.matchAll(/[;?!:]/g)) {
    const i = m.index;
    const before = text[i - 1];
    // A sign at the start of a line, or right after another sign ("?!"), needs no space of its own.
    if (i === 0 || before === '\n' || (before !== undefined && ';?!:'.includes(before))) continue;
    const wanted = m[0] === ':' ? NBSP : NNBSP;
    if (before !== wanted) faults.push(`"${m[0]}" at ${i} must follow ${m[0] === ':' ? 'U+00A0' : 'U+202F'}`);
  }
  for (const m of text.matchAll(/«/g)) if (text[m.index + 1] !== NBSP) faults.push(`"«" at ${m.index} must be followed by U+00A0`);
  for (const m of text.matchAll(/»/g)) if (text[m.index - 1] !== NBSP) faults.push(`"»" at ${m.index} must follow U+00A0`);
  if (text.includes("'")) faults.push('straight apostrophe (use ’)');
  if (text.includes('"') || /[“”]/.test(text)) faults.push('English quotes (use « »)');
  if (text.includes('...')) faults.push('three dots (use …)');
  // One term per concept.
  if (/(?<![\w-])e?mails?\b/i.test(text.replace(/\be-mails?\b/gi, ''))) faults.push('« e-mail » is the one word for electronic mail');
  if (/(?<!\.)\b[Ll]edes\b/.test(text)) faults.push('LEDES is written in capitals');
  if (/\boffices?\b/i.test(text)) faults.push('« bureau » is the one word for an office of the firm');
  if (/choisir un probl[eè]me/i.test(text)) faults.push('the contact form calls the issue « sujet »');
  return faults;
}

/** Words and spellings of the original French texts that have no place in English. */
export const FRENCH_IN_ENGLISH: readonly RegExp[] = [
  /\badd?resse\b/i,
  /\bcabinets?\b/i,
  /\bsuccesfully\b/i,
  /\bmail send\b/i,
  /\b[Cc]lient ids?\b/,
  /\bthere is no email\b/i,
  /\balready exist\b/i,
  /\btreated\b/i,
  /\bparamètre\b/i,
  /\bfourni\b/i,
  /\bveuillez\b/i,
  /\berreur\b/i,
  /\bfichiers?\b/i,
  /\butilisateurs?\b/i,
  /(?<!\.)\b[Ll]edes\b/,
];

export function englishFaults(value: string, where = ''): string[] {
  const text = prose(value);
  const faults: string[] = [];
  for (const re of FRENCH_IN_ENGLISH) if (re.test(text)) faults.push(`French word or copied spelling: ${re.source}`);
  // A language's own name is written in that language (the switcher's "Français"); nothing else is French.
  if (/[àâçéèêëîïôœùûü]/i.test(text) && !where.endsWith('.language.fr')) faults.push('French accented letter');
  if (/ [:;?!]/.test(text)) faults.push('space before a colon, semicolon, question or exclamation mark');
  if (/\be-mails?\b/i.test(text) || /(?<![\w-])mails?\b/i.test(text)) faults.push('"email" is the one word for electronic mail');
  if (text.includes('...')) faults.push('three dots (use …)');
  if (/[«»]/.test(text)) faults.push('French quotes in English (use “ ”)');
  return faults;
}

