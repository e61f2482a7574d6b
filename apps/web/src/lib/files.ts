/**
 * Checks of picked or dropped files before anything is sent: extension, size, count, duplicates.
 * Pure (no DOM, no i18n); the shared FileUpload component and its tests use it.
 */

export interface FileRules {
  /** Accepted extensions without the dot, lower case: ['txt', 'xml']. */
  extensions: readonly string[];
  maxFiles: number;
  /** Per file, in bytes. */
  maxBytes: number;
}

export interface FileLike {
  name: string;
  size: number;
  lastModified?: number;
}

export interface AddFilesOutcome<F extends FileLike> {
  files: F[];
  /** Names refused for their extension. */
  wrongType: string[];
  /** Names refused for their size. */
  tooLarge: string[];
  /** Names dropped because the list is full. */
  overflow: string[];
}

/** Case-insensitive extension check; a name without an extension (or only a dot-name) has none. */
export function hasExtension(filename: string, extensions: readonly string[]): boolean {
  const dot = filename.lastIndexOf('.');
  if (dot <= 0 && !filename.startsWith('.')) return false;
  return extensions.includes(filename.slice(dot + 1).toLowerCase());
}

/** Adds files: keeps the accepted extensions and sizes, skips exact duplicates, caps at maxFiles. */
export function addFiles<F extends FileLike>(current: readonly F[], incoming: readonly F[], rules: FileRules): AddFilesOutcome<F> {
  const files = [...current];
  const outcome: AddFilesOutcome<F> = { files, wrongType: [], tooLarge: [], overflow: [] };
  const key = (f: F) => `${f.name}\u0000${f.size}\u0000${f.lastModified ?? ''}`;
  const seen = new Set(files.map(key));
  for (const f of incoming) {
    if (!hasExtension(f.name, rules.extensions)) outcome.wrongType.push(f.name);
    else if (f.size > rules.maxBytes) outcome.tooLarge.push(f.name);
    else if (seen.has(key(f))) continue;
    else if (files.length >= rules.maxFiles) outcome.overflow.push(f.name);
    else {
      seen.add(key(f));
      files.push(f);
    }
  }
  return outcome;
}

const BYTE_UNITS = { en: ['B', 'kB', 'MB'], fr: ['o', 'ko', 'Mo'] } as const;

/**
 * Human size in the page's language: 1 234 bytes → "1.2 kB" in English, "1,2 ko" in French (octets,
 * decimal comma, a no-break space before the unit).
 */
export function formatBytes(size: number, lang: string = typeof document === 'undefined' ? 'en' : document.documentElement.lang): string {
  const fr = lang.startsWith('fr');
  const [b, kb, mb] = BYTE_UNITS[fr ? 'fr' : 'en'];
  const one = (n: number) => n.toLocaleString(fr ? 'fr-FR' : 'en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  if (size < 1024) return `${size}\u00A0${b}`;
  if (size < 1024 * 1024) return `${one(size / 1024)}\u00A0${kb}`;
  return `${one(size / (1024 * 1024))}\u00A0${mb}`;
}

/** The file name of a Content-Disposition header: filename* (RFC 5987) first, then filename. */
export function filenameFromDisposition(header: string | null | undefined, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/.exec(header);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
  return name || fallback;
}

/** Last path segment of a storage key, for a download without a Content-Disposition header. */
export function lastSegment(path: string): string {
  return path.split('/').filter(Boolean).pop() ?? 'download';
}
