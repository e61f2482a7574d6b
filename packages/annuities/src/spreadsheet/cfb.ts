import XLSX from '@e965/xlsx';

/** An OLE2 compound file as SheetJS's bundled CFB reader returns it (only what we read). */
interface CfbContainer {
  /** Every storage and stream path, e.g. `Root Entry/Workbook`. */
  FullPaths: string[];
}

interface CfbEntry {
  content?: Uint8Array | number[];
}

interface CfbReader {
  read(data: Buffer, options: { type: 'buffer' }): CfbContainer;
  find(container: CfbContainer, path: string): CfbEntry | null;
}

/** SheetJS types its CFB reader as `any`; this gives the two calls we make their real shape. */
export const CFB = XLSX.CFB as CfbReader;
