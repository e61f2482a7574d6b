import { extractText, getDocumentProxy } from 'unpdf';

/** Pages read for references at most (a receipt is a page or two). */
const MAX_PAGES = 5;

/**
 * A PDF's text with unpdf (Mozilla's PDF.js, serverless build): no parser of ours. Throws when the
 * PDF cannot be read (corrupt, encrypted…). The bytes are copied: PDF.js detaches what it is given.
 */
export async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, stopAtErrors: true });
  try {
    if (doc.numPages > MAX_PAGES) {
      const texts: string[] = [];
      for (let n = 1; n <= MAX_PAGES; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        texts.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
      }
      return texts.join('\n');
    }
    const { text } = await extractText(doc, { mergePages: true });
    return text;
  } finally {
    await doc.destroy();
  }
}
