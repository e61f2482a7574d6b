import { z } from 'zod';

export interface PaginationMeta {
  currentPage: number;
  totalPages: number;
  pageSize: number;
  total: number;
}
export const MAX_PAGE_SIZE = 600;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE),
});

export function paginationMeta(page: number, pageSize: number, total: number): PaginationMeta {
  return { currentPage: page, totalPages: Math.max(1, Math.ceil(total / pageSize)), pageSize, total };
}
