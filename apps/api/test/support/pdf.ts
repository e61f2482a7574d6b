/**
 * Small PDF fixtures written in the test setup: one page, Helvetica, each line of `lines` a text line,
 * with a correct cross-reference table (offsets computed), so PDF.js reads them without repair. No
 * PDF file is committed; this is how every receipt fixture is made.
 */
export function makePdf(lines: string[]): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = `BT /F1 12 Tf 50 750 Td 14 TL ${lines.map((l) => `(${esc(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A receipt as the payment provider sends it: its labels in French. */
export const receiptPdf = (refs: { client?: string; inpi?: string; provider?: string; date?: string }) =>
  makePdf([
    'Recepisse de paiement de redevance',
    ...(refs.client ? [`Reference client : ${refs.client}`] : []),
    ...(refs.inpi ? [`Reference INPI : ${refs.inpi}`] : []),
    ...(refs.provider ? [`Reference prestataire : ${refs.provider}`] : []),
    ...(refs.date ? [`Date ordre de paiement : ${refs.date}`] : []),
  ]);

/** Starts like a PDF, then nothing PDF.js can read. */
export const corruptPdf = () => Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R\nthis is not a pdf body at all\n', 'latin1');
