export { XLSX_CONTENT_TYPE } from './content-type.ts';
export { DEFLATE_LEVEL, neutralise, XlsxStreamWriter, type OutCell, type SheetOptions } from './xlsx-writer.ts';
export { ZipWriter } from './zip-writer.ts';
