import { z } from 'zod';

export const paginationMetaSchema = z.strictObject({
  currentPage: z.number().int().min(1),
  totalPages: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: z.number().int().min(0),
});
export type PaginationMeta = z.infer<typeof paginationMetaSchema>;

export function paginationMeta(page: number, pageSize: number, total: number): PaginationMeta {
  return { currentPage: page, totalPages: Math.max(1, Math.ceil(total / pageSize)), pageSize, total };
}

/**
 * The meta of the patent lists (decision 174): the spec's four fields, and optional extras. `total_more`:
 * the list is filtered and holds more rows than `total` (counting stops there; the screens say "more than").
 * `next_cursor` / `previous_cursor`: pass one as `cursor` to read the next / previous page from where this
 * one ends / starts (keyset paging: a deep page costs what the first does); null at either end.
 */
export const patentListMetaSchema = paginationMetaSchema.extend({
  total_more: z.boolean().optional(),
  next_cursor: z.string().nullable().optional(),
  previous_cursor: z.string().nullable().optional(),
});
export type PatentListMeta = z.infer<typeof patentListMetaSchema>;
