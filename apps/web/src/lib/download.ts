import { apiDownload, type QueryParams } from './api.ts';

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

/** Hands a blob to the browser as a download named `filename`. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * Downloads a stored file through the API and saves it under the server's name (Content-Disposition),
 * else the last segment of its storage key. Answers the name used.
 */
export async function downloadStoredFile(request: { path: string; method: 'GET' | 'POST'; body?: unknown; query?: QueryParams }, filePath: string): Promise<string> {
  const { blob, headers } = await apiDownload(request.path, request);
  const filename = filenameFromDisposition(headers.get('Content-Disposition'), lastSegment(filePath));
  saveBlob(blob, filename);
  return filename;
}
