/** The media type of an .xlsx workbook, as stored and as answered (Content-Type). */
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
