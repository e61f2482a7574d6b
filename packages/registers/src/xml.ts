import { SaxesParser } from 'saxes';

/**
 * A small element tree read with saxes (the repository's XML parser, already used by the LEDES engine):
 * elements are matched by namespace URI and local name, never by prefix, because OPS answers name the
 * same namespaces `ops:`/`reg:` in one service and `ns2:`/`ns3:` in another (the recorded fixtures have both).
 * saxes reads no DTD and expands no external entity; the limits below bound what one answer may cost.
 */
export interface XmlElement {
  readonly uri: string;
  readonly local: string;
  readonly attributes: ReadonlyMap<string, string>;
  readonly children: XmlElement[];
  /** The element's own text (not its descendants'), trimmed at read. */
  text: string;
}

export const NS = {
  ops: 'http://ops.epo.org',
  register: 'http://www.epo.org/register',
  exchange: 'http://www.epo.org/exchange',
} as const;

export interface XmlLimits {
  /** Characters of the whole answer; a longer one is refused before parsing. */
  readonly maxChars: number;
  readonly maxDepth: number;
  readonly maxElements: number;
}

/** An OPS legal answer for a large family is ~0.1 MB per member; 8 MB holds ~80 of them. */
export const DEFAULT_XML_LIMITS: XmlLimits = { maxChars: 8 * 1024 * 1024, maxDepth: 64, maxElements: 400_000 };

export class XmlReadError extends Error {
  override readonly name = 'XmlReadError';
}

export function parseXml(text: string, limits: XmlLimits = DEFAULT_XML_LIMITS): XmlElement {
  if (text.length > limits.maxChars) throw new XmlReadError(`answer of ${text.length} characters is over the ${limits.maxChars} limit`);
  const parser = new SaxesParser({ xmlns: true, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let elements = 0;
  let failure: Error | null = null;

  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag) => {
    if (++elements > limits.maxElements) throw new XmlReadError(`more than ${limits.maxElements} elements`);
    if (stack.length >= limits.maxDepth) throw new XmlReadError(`deeper than ${limits.maxDepth} elements`);
    const attributes = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes)) {
      // Attributes of these documents carry no namespace; xmlns declarations are not data.
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      attributes.set(attribute.local, attribute.value);
    }
    const element: XmlElement = { uri: tag.uri, local: tag.local, attributes, children: [], text: '' };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else if (root === null) root = element;
    stack.push(element);
  });
  parser.on('text', (value) => {
    const top = stack[stack.length - 1];
    if (top) top.text += value;
  });
  parser.on('closetag', () => {
    const element = stack.pop();
    if (element) element.text = element.text.trim();
  });
  try {
    parser.write(text).close();
  } catch (error) {
    throw error instanceof XmlReadError ? error : new XmlReadError(error instanceof Error ? error.message : String(error));
  }
  if (failure) throw new XmlReadError((failure as Error).message);
  if (root === null) throw new XmlReadError('no root element');
  return root;
}

/** Direct children named `local` in namespace `uri`. */
export function children(element: XmlElement, uri: string, local: string): XmlElement[] {
  return element.children.filter((c) => c.uri === uri && c.local === local);
}

export function child(element: XmlElement, uri: string, local: string): XmlElement | undefined {
  return element.children.find((c) => c.uri === uri && c.local === local);
}

/** Every descendant named `local` in namespace `uri`, in document order. */
export function descendants(element: XmlElement, uri: string, local: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    for (const c of e.children) {
      if (c.uri === uri && c.local === local) out.push(c);
      walk(c);
    }
  };
  walk(element);
  return out;
}
