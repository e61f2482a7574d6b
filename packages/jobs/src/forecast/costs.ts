import type { Annuity, Day } from '@portal/annuities/core';
import { costOf, type CostTables } from '../costs/load.ts';

/** An annuity's cost parts in euro cents, as the patent's detail prices them (`costBreakdown`, decision 199). */
export interface EurParts {
  official: number;
  surcharge: number;
  agentFee: number;
  serviceFee: number;
  margin: number;
  /** 1 when a part had no ECB rate (its euros count 0), else 0. */
  unconverted: number;
}

/** The forecast's reading of `costBreakdown` (decision 217): the same parts, summed per kind in euros. */
export function eurPartsOf(tables: CostTables, annuity: Annuity, cabinetId: string, payDay: Day): EurParts {
  const cost = costOf(tables, annuity, cabinetId, payDay);
  const eur = { official: 0, surcharge: 0, agentFee: 0, serviceFee: 0, margin: 0, unconverted: 0 };
  for (const p of cost.parts) {
    const v = p.eurMinor ?? 0;
    if (p.kind === 'official_fee') eur.official += v;
    else if (p.kind === 'surcharge') eur.surcharge += v;
    else if (p.kind === 'agent_fee') eur.agentFee += v;
    else if (p.kind === 'service_fee') eur.serviceFee += v;
    else eur.margin += v;
  }
  if (cost.parts.length > 0 && cost.totalEurMinor === null) eur.unconverted = 1;
  return eur;
}
