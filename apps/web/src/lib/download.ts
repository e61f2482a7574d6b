import { apiDownload, type QueryParams } from './api.ts';
import { filenameFromDisposition, lastSegment } from './files.ts';

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
