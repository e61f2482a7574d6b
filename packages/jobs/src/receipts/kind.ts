const PDF_MAGIC = Buffer.from('%PDF-', 'latin1');
/** How far `%PDF-` may start (ISO 32000 readers accept leading bytes; Acrobat looks within the first 1,024). */
export const PDF_SNIFF_BYTES = 1024;
/** The first bytes of a zip's local header: an `.xlsx` or a `.zip` with at least one entry starts with them. */
export const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** A zip starts with a local header, or, empty, with its end of central directory. */
export const ZIP_SIGNATURES: readonly Buffer[] = [ZIP_MAGIC, Buffer.from([0x50, 0x4b, 0x05, 0x06])];

/** Whether `bytes` starts with one of `signatures`. */
export const startsWithAny = (bytes: Buffer, signatures: readonly Buffer[]): boolean =>
  signatures.some((signature) => bytes.length >= signature.length && bytes.subarray(0, signature.length).equals(signature));

/** A PDF holds `%PDF-` within its first 1,024 bytes. */
export const isPdf = (bytes: Buffer): boolean => bytes.subarray(0, PDF_SNIFF_BYTES).includes(PDF_MAGIC);

/**
 * What a receipts upload is, from its first bytes: the signature at offset 0 first (a zip's wins: a
 * zip whose PDFs are stored, not deflated, holds `%PDF-` from its byte 40 on), then `%PDF-` within
 * the first 1,024 bytes; neither: null.
 */
export function receiptUploadKind(head: Buffer): 'zip' | 'pdf' | null {
  if (startsWithAny(head, ZIP_SIGNATURES)) return 'zip';
  if (isPdf(head)) return 'pdf';
  return null;
}
