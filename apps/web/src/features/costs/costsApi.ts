import { queryOptions } from '@tanstack/react-query';
import type { AgentFeeDto, CostTablesResponse, EcbImportDto, ServiceFeeDto } from '@portal/contracts';
import { api, apiPath, apiUpload, type UploadProgress } from '../../lib/api.ts';

/** packages/contracts RATE_FILE_EXTENSIONS and RATE_FILE_MAX_BYTES. */
export const RATE_FILE_RULES = { extensions: ['csv', 'xml'], maxFiles: 1, maxBytes: 16 * 1024 * 1024 } as const;
const UPLOAD_TIMEOUT_MS = 5 * 60_000;
export const COST_OFFICES = ['EP', 'UP', 'BE', 'DE', 'ES', 'FR', 'GB', 'IT', 'NL', 'SE'] as const;

export const costTablesKey = ['costs', 'tables'] as const;

export function costTablesQuery() {
  return queryOptions({ queryKey: costTablesKey, queryFn: ({ signal }) => api<CostTablesResponse>('/cost_tables', { signal }) });
}

export function uploadEcbFile(file: File, options: { signal?: AbortSignal; onProgress?: (p: UploadProgress) => void } = {}) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiUpload<{ success: true; ecb_import: EcbImportDto }>('/exchange_rates/ecb', form, { ...options, timeoutMs: UPLOAD_TIMEOUT_MS });
}

export interface AgentFeeInput {
  office: string;
  amount: number;
  currency: string;
  valid_from: string;
  valid_until: string | null;
  note: string | null;
}
export interface ServiceFeeInput {
  cabinet_id: string;
  amount: number;
  currency: string;
  margin_percent: number | null;
  valid_from: string;
  valid_until: string | null;
  note: string | null;
}

export const addAgentFee = (body: AgentFeeInput) => api<{ success: true; agent_fee: AgentFeeDto }>('/cost_tables/agent_fees', { method: 'POST', body });
export const addServiceFee = (body: ServiceFeeInput) => api<{ success: true; service_fee: ServiceFeeDto }>('/cost_tables/service_fees', { method: 'POST', body });
export const deleteAgentFee = (id: string) => api<{ success: true }>(apiPath`/cost_tables/agent_fees/${id}`, { method: 'DELETE' });
export const deleteServiceFee = (id: string) => api<{ success: true }>(apiPath`/cost_tables/service_fees/${id}`, { method: 'DELETE' });
