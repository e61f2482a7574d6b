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
