import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPortal, type TestPortal } from './support/portal.ts';

/** A raw HTTP exchange (fetch would negotiate and decode by itself). */
function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    // The path goes as written: a URL object would resolve '%2e%2e' segments before sending.
    const { hostname, port, pathname } = new URL(url.replace(/^(https?:\/\/[^/]+).*$/, '$1'));
    const rawPath = url.replace(/^https?:\/\/[^/]+/, '') || pathname;
    const req = request({ hostname, port, path: rawPath, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const JS = `export const big = ${JSON.stringify('x'.repeat(4000))};\n`.repeat(4);
const HTML = `<!doctype html><html><head><title>Portal</title><script type="module" src="/assets/app-1a2b3c.js"></script></head><body><div id="root"></div>${'<!-- pad -->'.repeat(200)}</body></html>`;

describe('the embedded server sends the web build precompressed, with the right caching', () => {
  let t: TestPortal;
  beforeAll(async () => {
    const web = mkdtempSync(path.join(tmpdir(), 'portal-web-'));
    mkdirSync(path.join(web, 'assets'));
    mkdirSync(path.join(web, '.vite'));
    const files: Record<string, string> = { 'index.html': HTML, 'assets/app-1a2b3c.js': JS, 'assets/app-1a2b3c.css': `body{margin:0}${'.a{color:red}'.repeat(200)}` };
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(path.join(web, name), text);
      writeFileSync(path.join(web, `${name}.br`), brotliCompressSync(text));
      writeFileSync(path.join(web, `${name}.gz`), gzipSync(text));
    }
    writeFileSync(path.join(web, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(path.join(web, '.vite/manifest.json'), '{}');
    t = await startTestPortal('pglite', { SERVE_WEB: 'true', WEB_DIST_DIR: web });
  });
  afterAll(async () => t.close());

  it('brotli when the browser accepts it: Content-Encoding br, the JavaScript type, Vary, immutable', async () => {
    const res = await get(`${t.url}/assets/app-1a2b3c.js`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers.vary).toMatch(/Accept-Encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.length).toBeLessThan(JS.length / 10);
    expect(brotliDecompressSync(res.body).toString()).toBe(JS);
  });

  it('gzip for a browser without brotli (or refusing it), identity for one that accepts neither', async () => {
    for (const accept of ['gzip, deflate', 'br;q=0, gzip']) {
      const res = await get(`${t.url}/assets/app-1a2b3c.css`, { 'accept-encoding': accept });
      expect(res.headers['content-encoding'], accept).toBe('gzip');
      expect(res.headers['content-type']).toMatch(/^text\/css/);
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(gunzipSync(res.body).toString()).toMatch(/^body\{margin:0\}/);
    }
    const headerSets: Array<Record<string, string>> = [{}, { 'accept-encoding': 'identity' }];
    for (const headers of headerSets) {
      const res = await get(`${t.url}/assets/app-1a2b3c.js`, headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/i);
      expect(res.body.toString()).toBe(JS);
    }
  });

  it('the shell (index.html and every client-side route) is compressed too and always revalidated', async () => {
    for (const route of ['/', '/login', '/ledes/history', '/index.html']) {
      const res = await get(`${t.url}${route}`, { 'accept-encoding': 'br, gzip', accept: 'text/html' });
      expect(res.status, route).toBe(200);
      expect(res.headers['content-encoding'], route).toBe('br');
      expect(res.headers['content-type'], route).toMatch(/^text\/html/);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(brotliDecompressSync(res.body).toString()).toBe(HTML);
    }
    const plain = await get(`${t.url}/login`, { accept: 'text/html' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(HTML);
  });

  it('HEAD answers the same headers without a body; unhashed files revalidate; small files go as they are', async () => {
    const head = await get(`${t.url}/assets/app-1a2b3c.js`, { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
    const icon = await get(`${t.url}/favicon.svg`, { 'accept-encoding': 'br, gzip' });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('never serves the build manifest, a compressed copy by its own name, or a path out of the build', async () => {
    for (const p of ['/.vite/manifest.json', '/assets/app-1a2b3c.js.br', '/assets/app-1a2b3c.js.gz', '/assets/missing-000000.js', '/assets/%2e%2e/index.html', '/assets/..%2findex.html']) {
      const res = await get(`${t.url}${p}`, { 'accept-encoding': 'br, gzip', accept: '*/*' });
      expect(res.status, p).toBe(404);
    }
  });
});
