import { parseNumber } from '@portal/annuities/numbers';
import { OpsRegisterSource, type OpsOptions } from './ops/driver.ts';
import type { EpNumber, RegisterSource } from './types.ts';

/** The register settings of `@portal/config` (`Config['registers']`): OPS credentials, or none. */
export interface RegistersConfig {
  readonly ops: { readonly consumerKey: string; readonly consumerSecret: string; readonly baseUrl: string } | undefined;
}

/** The register source the configuration allows: null (the sync is off) without OPS credentials. */
export function createRegisterSource(config: RegistersConfig, options: Partial<Pick<OpsOptions, 'timeoutMs' | 'now' | 'userAgent' | 'xmlLimits'>> = {}): RegisterSource | null {
  if (!config.ops) return null;
  return new OpsRegisterSource({ ...options, ...config.ops });
}

/**
 * The EP number a register is asked about, from what a spreadsheet holds: the engine's parser reads
 * "EP 3 456 789 B1", "EP16839078.9", "16839078" alike. A UP row carries its EP numbers. Anything else: null.
 */
export function epNumberOf(raw: string, kind: 'application' | 'publication'): EpNumber | null {
  const parsed = parseNumber(raw, kind, 'EP');
  if (!parsed.ok || parsed.value.country !== 'EP') return null;
  const digits = parsed.value.digits;
  if (kind === 'application' ? digits.length !== 8 : digits.length !== 7) return null;
  return { kind, digits };
}
