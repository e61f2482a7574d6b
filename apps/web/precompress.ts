import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text assets worth compressing; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
/** Below this, the saving does not pay for a second file and a header. */
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside every text asset of a
 * build directory, each only when it is smaller than the original. The servers pick one by
 * `Accept-Encoding` (the embedded API, nginx's gzip_static): nothing is compressed per request.
 */
export function precompressDir(dir: string): { file: string; raw: number; br?: number; gz?: number }[] {
  const written: { file: string; raw: number; br?: number; gz?: number }[] = [];
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = readFileSync(file);
    if (raw.length < MIN_BYTES) continue;
    const row: { file: string; raw: number; br?: number; gz?: number } = { file: path.relative(dir, file), raw: raw.length };
    const br = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
    });
    if (br.length < raw.length) {
      writeFileSync(`${file}.br`, br);
      row.br = br.length;
    }
    const gz = gzipSync(raw, { level: 9 });
    if (gz.length < raw.length) {
      writeFileSync(`${file}.gz`, gz);
      row.gz = gz.length;
    }
    written.push(row);
  }
  return written;
}

/** Vite plugin: precompress the output once the bundle is written (build only). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        precompressDir(outDir);
      },
    },
  };
}
