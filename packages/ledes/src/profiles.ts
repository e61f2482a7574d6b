import type { CodeSetId } from './codesets.ts';
import type { RuleCode, Severity } from './rules/catalogue.ts';

export type InvoiceType = 'patent' | 'trademark' | 'annuites';
export const INVOICE_TYPES: readonly InvoiceType[] = ['patent', 'trademark', 'annuites'];

/**
 * What the engine applies for one (office, invoice type). Plain JSON-able data so the
 * DB package can store and seed it; the engine never reads a database.
 */
export interface LedesProfile {
  readonly office: string;
  readonly type: InvoiceType;
  readonly taskCodeSets: readonly CodeSetId[];
  /** Task codes imported from LOC workbooks not shipped here (2023 patent, 2009 trademark). */
  readonly extraTaskCodes: readonly string[];
  readonly activityCodeSets: readonly CodeSetId[];
  readonly expenseCodeSets: readonly CodeSetId[];
  readonly extraTimekeeperClassifications: readonly string[];
  /** Accepted gap on line and invoice totals, in minor units of `decimals` (0 = exact). */
  readonly totalsToleranceMinor: number;
  /** Maximum decimals on currency amounts (FLD-004) and the minor unit of the tolerance. */
  readonly decimals: number;
  /** Task and activity codes are "required per client" in the standard. */
  readonly requireTaskCode: boolean;
  readonly requireActivityCode: boolean;
  /** Country code style of 98BI address fields (FLD-008). */
  readonly countryCodeStyle: 'alpha2' | 'alpha3' | 'any';
  /** Narrative guideline (GDL-001). */
  readonly maxDescriptionLength: number;
  readonly minDescriptionWords: number;
  readonly severityOverrides: Readonly<Partial<Record<RuleCode, Severity>>>;
}

export interface LedesOffice {
  readonly code: string;
  readonly label_en: string;
  readonly label_fr: string;
  readonly profiles: readonly LedesProfile[];
}

const BASE = {
  taskCodeSets: ['utbms-litigation'],
  extraTaskCodes: [],
  activityCodeSets: ['utbms-activity'],
  expenseCodeSets: ['utbms-expense', 'ip-expense'],
  extraTimekeeperClassifications: [],
  totalsToleranceMinor: 0,
  decimals: 2,
  requireTaskCode: true,
  requireActivityCode: true,
  countryCodeStyle: 'any',
  maxDescriptionLength: 1024,
  minDescriptionWords: 2,
  severityOverrides: {},
} as const satisfies Omit<LedesProfile, 'office' | 'type'>;

function profilesFor(office: string, overrides: Partial<Omit<LedesProfile, 'office' | 'type'>>): LedesProfile[] {
  return [
    { ...BASE, ...overrides, office, type: 'patent' },
    { ...BASE, ...overrides, office, type: 'trademark' },
    // Annuity invoices are mostly official-fee expense lines plus a service fee: no activity code required.
    { ...BASE, ...overrides, office, type: 'annuites', requireActivityCode: false },
  ];
}

/** Seed data for the three offices of the product ("three offices, chosen by radio"). */
export const DEFAULT_OFFICES: readonly LedesOffice[] = [
  {
    code: 'PAR',
    label_en: 'Paris office',
    label_fr: 'Bureau de Paris',
    profiles: profilesFor('PAR', {}),
  },
  {
    code: 'LON',
    label_en: 'London office',
    label_fr: 'Bureau de Londres',
    // UK clients bill in 98BI with VAT: one penny of rounding accepted (as a warning), alpha-2 countries.
    profiles: profilesFor('LON', { totalsToleranceMinor: 1, countryCodeStyle: 'alpha2' }),
  },
  {
    code: 'MUC',
    label_en: 'Munich office',
    label_fr: 'Bureau de Munich',
    // Its receiving platforms accept printable ASCII only and the DRI 2007 litigation set.
    profiles: profilesFor('MUC', {
      taskCodeSets: ['utbms-litigation-2007'],
      activityCodeSets: ['utbms-activity-2007'],
      severityOverrides: { 'FMT-006': 'error', 'CON-004': 'error' },
    }),
  },
];

export const DEFAULT_PROFILES: readonly LedesProfile[] = DEFAULT_OFFICES.flatMap((o) => o.profiles);

export function defaultProfile(office: string, type: InvoiceType): LedesProfile | undefined {
  return DEFAULT_PROFILES.find((p) => p.office === office && p.type === type);
}
