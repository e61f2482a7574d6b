/**
 * Deflate level against size for the treated workbook's XML: `npm run bench -- xlsx-deflate`.
 * Builds the XML the streaming xlsx writer produces for a generated 200,000-line 1998B file (rows as
 * the treated workbook gives them: line, status, findings, then every field), then deflates it in
 * 1 MiB pieces at levels 1, 2, 3 and 6 (best CPU time of 3 each). BENCH_LINES changes the size.
 */
import { Writable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import { XlsxStreamWriter, neutralise, type OutCell } from '../packages/xlsx/src/index.ts';
import { ZipWriter } from '../packages/xlsx/src/zip-writer.ts';
import { generateLedes } from '../packages/ledes/test/generate.ts';

const LINES = Number(process.env.BENCH_LINES ?? 200_000);
const parts: Buffer[] = [];
for await (const c of generateLedes(LINES)) parts.push(c);
const lines = Buffer.concat(parts).toString('latin1').split('\n').slice(2).filter(Boolean);

// The XML handed to the zip writer, captured before deflate.
const captured: Buffer[] = [];
const write = ZipWriter.prototype.write;
ZipWriter.prototype.write = function (this: ZipWriter, data: string | Buffer) {
  captured.push(Buffer.from(data));
  return write.call(this, data);
};
const xlsx = new XlsxStreamWriter(new Writable({ write: (_c, _e, cb) => cb() }), [], { sharedStrings: 100_000 });
await xlsx.startSheet('Lines');
let line = 0;
for (const text of lines) {
  const cells: OutCell[] = [++line, 'OK', null];
  for (const field of text.slice(0, -1).split('|')) cells.push(field === '' ? null : neutralise(field));
  if (xlsx.addRow(cells)) await xlsx.flush();
}
await xlsx.finish();
ZipWriter.prototype.write = write;

const xml = Buffer.concat(captured);
const pieces: Buffer[] = [];
for (let at = 0; at < xml.length; at += 1 << 20) pieces.push(xml.subarray(at, at + (1 << 20)));
const cpuMs = (run: () => void) => {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
console.log(`\nTreated workbook XML of ${LINES.toLocaleString('en-US')} lines: ${(xml.length / 2 ** 20).toFixed(1)} MiB; crc32 ${cpuMs(() => pieces.reduce((crc, p) => crc32(p, crc), 0)).toFixed(0)} CPU ms\n`);
console.log('| zlib level | compressed MiB | deflate CPU ms (best of 3) |\n|---:|---:|---:|');
for (const level of [1, 2, 3, 6]) {
  let size = 0;
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    size = 0;
    best = Math.min(best, cpuMs(() => {
      for (const piece of pieces) size += deflateRawSync(piece, { level }).length;
    }));
  }
  console.log(`| ${level} | ${(size / 2 ** 20).toFixed(1)} | ${best.toFixed(0)} |`);
}
