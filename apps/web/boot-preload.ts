import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';
import { entryKey, LOCALE_MODULES, readManifest, ROUTE_MODULES, staticClosure, type Manifest } from './first-load.ts';
import { LANGUAGE_STORAGE_KEY } from './src/lib/language.ts';

/**
 * What a cold visit needs after the shell, fetched while the shell itself downloads.
 *
 * The shell (the entry chunk) picks the visitor's language and matches the route only once it has
 * arrived and run; on a slow link the language chunk and the screen's chunks then cost one more round
 * trip after it (the second wave of the first-load bench). A tiny classic script, loaded `async` beside
 * the shell, starts those fetches at once as `modulepreload`s: the shell's own `import()`s then find the
 * modules already there. It is a hint only: a wrong guess costs a wasted download, never a wrong screen.
 */
export interface PreloadMap {
  /** Files of each language's texts. */
  languages: Record<string, number[]>;
  /** Files of each screen beyond the shell, by route path. */
  routes: Record<string, number[]>;
  /** The file names the lists above index (shared chunks appear once). */
  files: string[];
}

/**
 * The screens a cold visit lands on: the home page, the login (a bookmark, a redirect from a deep link) and
 * the password links of e-mails. Every listed screen costs its file names in the boot script, which every
 * first load downloads, so the logged-in screens (reached by navigation, the shell already running) are not.
 */
export const PRELOADED_ROUTES = ['/', '/login', '/forgot_password', '/password_reset'] as const;

/** The preloads of the landing screens and of each language, read from the build's manifest. */
export function preloadMap(manifest: Manifest, routes: readonly string[] = PRELOADED_ROUTES): PreloadMap {
  const shell = new Set(staticClosure(manifest, [entryKey(manifest)]));
  const files: string[] = [];
  const index = (file: string) => {
    const at = files.indexOf(file);
    return at >= 0 ? at : files.push(file) - 1;
  };
  const own = (module: string) => staticClosure(manifest, [module]).filter((k) => !shell.has(k)).map((k) => index(manifest[k]!.file));
  const languages = Object.fromEntries(Object.entries(LOCALE_MODULES).map(([lang, module]) => [lang, own(module)]));
  const byRoute = Object.fromEntries(
    routes.map((route) => {
      const module = ROUTE_MODULES[route];
      if (!module) throw new Error(`boot-preload: ${route} is not a route of the router`);
      return [route, own(module)];
    }),
  );
  return { languages, routes: byRoute, files };
}

/**
 * The boot script. Its language rule is the app's (`chooseInitialLanguage`: the remembered choice, then the
 * browser's languages in order, then English), over the languages the build has texts for (the map's keys); `test/boot-preload.test.ts` runs both on the same inputs.
 */
export function bootScript(map: PreloadMap, base = '/'): string {
  const data = JSON.stringify({ l: map.languages, r: map.routes, f: map.files });
  return `!function(){try{var m=${data},s,c,l="en",i,b,n,d=document;try{s=localStorage.getItem(${JSON.stringify(LANGUAGE_STORAGE_KEY)})}catch(e){}c=[s].concat(navigator.languages||[navigator.language]);for(i=0;i<c.length;i++){b=String(c[i]||"").trim().toLowerCase().split(/[-_]/)[0];if(m.l[b]){l=b;break}}n=(m.l[l]||[]).concat(m.r[location.pathname.replace(/(.)\\/$/,"$1")]||[]);for(i=0;i<n.length;i++){b=d.createElement("link");b.rel="modulepreload";b.href=${JSON.stringify(base)}+m.f[n[i]];d.head.appendChild(b)}}catch(e){}}();\n`;
}

/** Vite plugin (build only): writes `assets/boot-<hash>.js` and loads it `async` ahead of the shell in index.html. */
export function bootPreload(): Plugin {
  let outDir = 'dist';
  let base = '/';
  return {
    name: 'portal-boot-preload',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      base = config.base;
    },
    writeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const script = bootScript(preloadMap(readManifest(outDir)), base);
        const file = `assets/boot-${createHash('sha256').update(script).digest('hex').slice(0, 10)}.js`;
        writeFileSync(path.join(outDir, file), script);
        const htmlPath = path.join(outDir, 'index.html');
        const html = readFileSync(htmlPath, 'utf8');
        const shellTag = html.indexOf('<script type="module"');
        if (shellTag < 0) throw new Error('boot-preload: no module script in index.html');
        writeFileSync(htmlPath, `${html.slice(0, shellTag)}<script async src="${base}${file}"></script>\n    ${html.slice(shellTag)}`);
      },
    },
  };
}
