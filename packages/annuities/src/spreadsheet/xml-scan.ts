/**
 * A small streaming reader of the XML an xlsx part holds: elements, their attributes and text, fed in
 * chunks of any size. It knows no DTD (the guard refuses a part with one before any reader runs), so
 * the only entities are XML's five and character references. Element names lose their namespace
 * prefix (`x:c` is `c`), as some writers prefix SpreadsheetML.
 */
export interface XmlHandler {
  /** An element opens (`selfClosing`: it also ends, and `close` is not called). `tag` is its text, for `attributes`. */
  open(name: string, tag: string, selfClosing: boolean): void;
  close(name: string): void;
  /** Text (entities decoded), only while `capturing` says so: text nobody reads is not sliced nor decoded. */
  text(text: string): void;
  readonly capturing: boolean;
}

/** Malformed markup: the part cannot be read. */
export class XmlError extends Error {}

/** Bounds the markup kept between two chunks: a tag, comment or CDATA section longer than this is refused. */
const MAX_CARRY = 1 << 20;
/** The longest entity or character reference: `&#x10FFFF;`. */
const MAX_ENTITY = 10;

export class XmlScanner {
  private carry = '';

  constructor(private readonly handler: XmlHandler) {}

  write(chunk: string): void {
    const s = this.carry.length === 0 ? chunk : this.carry + chunk;
    this.carry = '';
    const h = this.handler;
    const n = s.length;
    let i = 0;
    while (i < n) {
      const lt = s.indexOf('<', i);
      if (lt === -1) {
        // The text to the chunk's end, less an entity it may end in the middle of (kept for the next chunk).
        const amp = s.lastIndexOf('&');
        const cut = amp >= i && n - amp <= MAX_ENTITY && s.indexOf(';', amp) === -1 ? amp : n;
        if (cut > i && h.capturing) h.text(decodeXml(s.slice(i, cut)));
        if (cut < n) this.carry = s.slice(cut);
        return;
      }
      if (lt > i && h.capturing) h.text(decodeXml(s.slice(i, lt)));
      const next = s.charCodeAt(lt + 1);
      let end: number;
      if (next === 0x21 /* ! */) {
        if (s.startsWith('<!--', lt)) {
          end = s.indexOf('-->', lt + 4);
          if (end === -1) return this.keep(s, lt);
          i = end + 3;
        } else if (s.startsWith('<![CDATA[', lt)) {
          end = s.indexOf(']]>', lt + 9);
          if (end === -1) return this.keep(s, lt);
          if (h.capturing) h.text(s.slice(lt + 9, end));
          i = end + 3;
        } else if (n - lt < 9) {
          return this.keep(s, lt);
        } else {
          throw new XmlError('markup declaration');
        }
        continue;
      }
      if (next === 0x3f /* ? */) {
        end = s.indexOf('?>', lt + 2);
        if (end === -1) return this.keep(s, lt);
        i = end + 2;
        continue;
      }
      end = tagEnd(s, lt + 1);
      if (end === -1) return this.keep(s, lt);
      if (next === 0x2f /* / */) {
        h.close(localName(s.slice(lt + 2, end).trim()));
      } else {
        const selfClosing = s.charCodeAt(end - 1) === 0x2f;
        const tag = s.slice(lt + 1, selfClosing ? end - 1 : end);
        h.open(localName(tagName(tag)), tag, selfClosing);
      }
      i = end + 1;
    }
  }

  /** Call after the last chunk: anything left is markup never closed. */
  end(): void {
    if (this.carry.length > 0) throw new XmlError('unterminated markup at the end of the part');
  }

  private keep(s: string, from: number): void {
    if (s.length - from > MAX_CARRY) throw new XmlError('markup too long');
    this.carry = s.slice(from);
  }
}

/** The `>` closing the tag that starts at `from`, outside quoted attribute values (which may hold one); -1 if the chunk ends first. */
function tagEnd(s: string, from: number): number {
  const n = s.length;
  for (let i = from; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x3e /* > */) return i;
    if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      const close = s.indexOf(c === 0x22 ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close;
    }
  }
  return -1;
}

function tagName(tag: string): string {
  let i = 0;
  while (i < tag.length) {
    const c = tag.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) break;
    i++;
  }
  return tag.slice(0, i);
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

const ATTRIBUTE = /[\s]([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

/** The value of attribute `name` in a tag's text (decoded), or undefined. `name` may be given without its prefix (`id` finds `r:id`). */
export function attribute(tag: string, name: string): string | undefined {
  ATTRIBUTE.lastIndex = 0;
  for (let m = ATTRIBUTE.exec(tag); m !== null; m = ATTRIBUTE.exec(tag)) {
    const key = m[1] as string;
    if (key === name || (key.endsWith(`:${name}`) && !key.startsWith('xmlns'))) return decodeXml(m[2] ?? m[3] ?? '');
  }
  return undefined;
}

/**
 * The value of an unprefixed attribute of a cell or row tag (`r`, `t`), the hot path of a sheet: a plain search
 * for ` r="` rather than the general pattern. Values of these attributes never hold entities.
 */
export function shortAttribute(tag: string, name: string): string | undefined {
  const at = findAttribute(tag, name);
  if (at === -1) return undefined;
  const quote = tag.charCodeAt(at);
  const end = tag.indexOf(quote === 0x22 ? '"' : "'", at + 1);
  return end === -1 ? undefined : tag.slice(at + 1, end);
}

function findAttribute(tag: string, name: string): number {
  let from = 0;
  for (;;) {
    const at = tag.indexOf(name, from);
    if (at === -1) return -1;
    from = at + name.length;
    const before = tag.charCodeAt(at - 1);
    if (before !== 0x20 && before !== 0x09 && before !== 0x0a && before !== 0x0d) continue;
    let i = from;
    while (tag.charCodeAt(i) === 0x20) i++;
    if (tag.charCodeAt(i) !== 0x3d /* = */) continue;
    i++;
    while (tag.charCodeAt(i) === 0x20) i++;
    const q = tag.charCodeAt(i);
    if (q === 0x22 || q === 0x27) return i;
  }
}

const ENTITY = /&(?:(lt|gt|amp|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function fromCodePoint(code: number): string {
  return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
}

/** XML's five entities and character references decoded; anything else left as it is. */
export function decodeXml(text: string): string {
  if (text.indexOf('&') === -1) return text;
  return text.replace(ENTITY, (whole, named: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (named) return NAMED[named] ?? whole;
    return fromCodePoint(dec ? Number.parseInt(dec, 10) : Number.parseInt(hex as string, 16));
  });
}

const ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** SpreadsheetML's own escapes in string values (`_x000D_` is a carriage return, `_x005F_` an underscore: ECMA-376 ST_Xstring). */
export function decodeXstring(text: string): string {
  if (text.indexOf('_x') === -1) return text;
  return text.replace(ESCAPE, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}
