#!/usr/bin/env node
// Builds the server's JavaScript (decision 231): the API, every worker entrypoint and every worker thread's
// entry, bundled with our workspace packages into one folder, `dist/server/` (or the folder given as the first
// argument). Third-party packages stay external and load from node_modules. The processes then run plain
// `node dist/server/<entry>.mjs`: no TypeScript loader at run time, neither on the main thread nor in each
// worker thread (tsx's hooks thread and its transpiled copies cost ≈ 30 MB a thread).
//
// Layout rules the sources keep:
// - A worker thread's entry is found by `new URL('./<name>.mjs', import.meta.url)`: in the sources that is the
//   `.mjs` file beside the code (it registers tsx, then imports the `.ts`); here it is the bundle of that name in
//   the same folder as every other bundle. The names are unique across the packages (threadEntries).
// - `import.meta.dirname` in our sources means the source file's folder (the migrations, the repository's root,
//   a helper script): the bundle rewrites it to that folder, relative to the bundle, so the built tree moves
//   with the repository.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const outdir = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist/server'));

/**
 * The worker threads' entries, found by their file names: every `<name>-worker.mjs` under packages/<package>/src is a thread's
 * entry, the name its spawner asks for. One that imports a `.ts` (the sources' tsx shim) is bundled from that `.ts`;
 * a plain one (PGlite's thread) from itself. Two threads of the same name would load each other: refused.
 */
function threadEntries() {
  const entries = {};
  for (const pkg of readdirSync(path.join(ROOT, 'packages'))) {
    const src = path.join('packages', pkg, 'src');
    if (!existsSync(path.join(ROOT, src))) continue;
    for (const file of readdirSync(path.join(ROOT, src), { recursive: true })) {
      if (!String(file).endsWith('-worker.mjs')) continue;
      const shim = path.join(src, String(file));
      const name = path.basename(shim, '.mjs');
      if (entries[name]) throw new Error(`two worker threads named ${name}.mjs: ${entries[name]} and ${shim}`);
      const typescript = /import\('\.\/([\w-]+\.ts)'\)/.exec(readFileSync(path.join(ROOT, shim), 'utf8'))?.[1];
      entries[name] = typescript ? path.join(path.dirname(shim), typescript) : shim;
    }
  }
  return entries;
}

/** The workers' entrypoints: one per `start:<queue>` script of the workers package, which runs `worker-<queue>.mjs`. */
const WORKERS = Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'workers/package.json'), 'utf8')).scripts)
  .filter((script) => script.startsWith('start:'))
  .map((script) => script.slice('start:'.length));

const entryPoints = {
  api: 'apps/api/src/main.ts',
  ...Object.fromEntries(WORKERS.map((w) => [`worker-${w}`, `workers/src/entrypoints/${w}.ts`])),
  ...threadEntries(),
};

/** Our packages are bundled; every other bare import stays external (node_modules at run time). */
const externals = {
  name: 'externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('@portal/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** `import.meta.dirname` of a source file → that file's folder, reached from the bundle's own folder. */
const sourceDirname = {
  name: 'source-dirname',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mts|mjs)$/ }, async (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.dirname')) return undefined;
      const relative = path.relative(outdir, path.dirname(args.path)).split(path.sep).join('/');
      return {
        contents: text.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${relative}`)})`),
        loader: args.path.endsWith('.mjs') ? 'js' : 'ts',
      };
    });
  },
};

rmSync(outdir, { recursive: true, force: true });
const started = performance.now();
await build({
  absWorkingDir: ROOT,
  entryPoints: Object.fromEntries(Object.entries(entryPoints).map(([name, file]) => [name, path.join(ROOT, file)])),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  // Shared chunks sit beside the entries: a chunk's `import.meta.url` must find the threads' bundles too.
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Names kept: the logs and the errors' stacks name our functions and classes.
  keepNames: true,
  plugins: [externals, sourceDirname],
  logLevel: 'warning',
});
console.log(`server built in ${outdir} (${Object.keys(entryPoints).length} entries, ${Math.round(performance.now() - started)} ms)`);
