import { z } from 'zod';
import type { RunState } from './jobs.ts';

export const LEDES_TYPES = ['patent', 'trademark', 'annuites'] as const;
export type LedesType = (typeof LEDES_TYPES)[number];

/** Extensions accepted for a LEDES upload; the format itself is recognised from the content. */
export const LEDES_EXTENSIONS = ['txt', 'ledes', 'lds', 'xml'] as const;
export const LEDES_MAX_FILES = 10;
/** Upper bound of the `wait` option, as the original client's 120 s timeout. */
export const LEDES_MAX_WAIT_SECONDS = 120;
/** The admin log's page sizes; the user history uses 500, per the spec's constants. */
export const LEDES_HISTORY_PAGE_SIZES = [10, 20, 30, 50, 100, 600] as const;

const yesNo = z.enum(['true', 'false', 'yes', 'no', '1', '0', 'oui', 'non']).transform((v) => ['true', 'yes', '1', 'oui'].includes(v));

/** The multipart text fields of POST /api/ledes/file/{type}/{office}, after the files. */
export const ledesUploadFields = z.object({
  type: z.string().max(20).optional(),
  office: z.string().max(20).optional(),
  send_history: yesNo.optional(),
  send_server: yesNo.optional(),
  user_id: z.string().max(64).optional(),
  id_client: z.string().trim().max(64).optional(),
  client_destinataire: z.string().trim().max(200).optional(),
  wait: z.coerce.number().int().min(0).max(LEDES_MAX_WAIT_SECONDS).optional(),
});

export const ledesDownloadBody = z.strictObject({ file_path: z.string().min(1).max(2048) });

export const historySearchQuery = z.object({
  search_query: z.string().max(200).default(''),
  page: z.coerce.number().int().min(1).max(1_000_000),
  limit: z.coerce.number().int().min(1).max(600),
});

export interface LedesOfficeDto {
  code: string;
  label_en: string;
  label_fr: string;
}

/** A run as the screens follow it live; also the payload of the `ledes:run` socket event. */
export interface LedesRunDto {
  _id: string;
  name: string;
  filename: string;
  state: RunState;
  accepted: boolean | null;
  lines_checked: number;
  office: string;
  type: LedesType;
  owner_id: string;
  created: string;
  finished: string | null;
  delivered: boolean;
  error_code: string | null;
}

/** The spec's history item, with the file's findings summarised as line numbers. */
export interface HistoryItem {
  _id: string;
  name: string;
  /** The uploaded file's own name (the history name without its date prefix). */
  filename: string;
  created: string;
  state: RunState;
  accepted: boolean | null;
  lines_checked: number;
  /** Data lines without error (capped list) and lines with an error, as 0-based numbers. */
  format_ok: number[];
  error: number[];
  format_ok_count: number;
  error_count: number;
  path: string;
  path_treated: string | null;
  office: string;
  type: LedesType;
  user_info: { _id: string; company_agent: string; email: string };
  delivered: boolean;
}
