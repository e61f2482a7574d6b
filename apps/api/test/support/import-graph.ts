import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The static import graph of the workspace's TypeScript sources (type-only imports and re-exports
// included, `import()` left out: a lazy import is how a load-order cycle is broken), and its cycles.
// Used by the layer test (decision 165) instead of a lint plugin: no new dependency, one parse per file.

const SOURCE = /\.(ts|tsx)$/;
const SKIP = new Set(['node_modules', 'dist', 'coverage', 'test', 'test-support']);

/** The `.ts`/`.tsx` files under the given directories, tests left out. */
export function sourceFiles(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir)) {
      if (SKIP.has(entry)) continue;
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (SOURCE.test(entry) && !/\.(test|spec|bench)\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) out.push(full);
    }
  };
  for (const dir of dirs) if (existsSync(dir)) walk(dir);
  return out.sort();
}

/** The workspace packages' entry points: `@portal/x` and `@portal/x/sub` to their files. */
export function workspaceEntries(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const group of ['packages', 'apps']) {
    const base = path.join(root, group);
    if (!existsSync(base)) continue;
    for (const dir of readdirSync(base)) {
      const manifest = path.join(base, dir, 'package.json');
      if (!existsSync(manifest)) continue;
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: Record<string, unknown> };
      for (const [key, target] of Object.entries(pkg.exports ?? {})) {
        if (typeof target !== 'string' || key.includes('*')) continue;
        entries.set(key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`, path.join(base, dir, target));
      }
    }
  }
  return entries;
}

function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const statement of source.statements) {
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
      out.push(statement.moduleSpecifier.text);
    }
  }
  return out;
}

function resolve(from: string, specifier: string, entries: Map<string, string>): string | null {
  if (entries.has(specifier)) return entries.get(specifier)!;
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** Each file's imports among the given files. */
export function importGraph(files: readonly string[], entries: Map<string, string> = new Map()): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiers(file)
      .map((s) => resolve(file, s, entries))
      .filter((t): t is string => t !== null && known.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components of more than one file (or a file importing itself): each is a cycle. Tarjan's algorithm. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return cycles;
}
