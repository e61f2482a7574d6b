/**
 * UTBMS code sets and other reference lists, as data (ledes.md §4).
 * The 2023 patent prosecution and 2009 trademark task codes are not public; a profile
 * supplies them through `extraTaskCodes` once imported from the LOC workbooks.
 */
export type CodeSetId =
  | 'utbms-litigation'
  | 'utbms-litigation-2007'
  | 'utbms-activity'
  | 'utbms-activity-2007'
  | 'utbms-expense'
  | 'ip-expense'
  | 'loc-expense-2013';

export interface CodeSet {
  readonly id: CodeSetId;
  readonly label: string;
  /** Code → English label. */
  readonly codes: Readonly<Record<string, string>>;
  /** Phase headings (L100…): valid codes that are normally not billed → warning. */
  readonly phases?: readonly string[];
}

const LITIGATION: Record<string, string> = {
  L110: 'Fact Investigation/Development', L120: 'Analysis/Strategy', L130: 'Experts/Consultants',
  L140: 'Document/File Management', L150: 'Budgeting', L160: 'Settlement/Non-Binding ADR',
  L190: 'Other Case Assessment, Development and Administration',
  L210: 'Pleadings', L220: 'Preliminary Injunctions/Provisional Remedies', L230: 'Court Mandated Conferences',
  L240: 'Dispositive Motions', L250: 'Other Written Motions and Submissions', L260: 'Class Action Certification and Notice',
  L310: 'Written Discovery', L320: 'Document Production', L330: 'Depositions', L340: 'Expert Discovery',
  L350: 'Discovery Motions', L390: 'Other Discovery',
  L410: 'Fact Witnesses', L420: 'Expert Witnesses', L430: 'Written Motions and Submissions',
  L440: 'Other Trial Preparation and Support', L450: 'Trial and Hearing Attendance',
  L460: 'Post-Trial Motions and Submissions', L470: 'Enforcement',
  L510: 'Appellate Motions and Submissions', L520: 'Appellate Briefs', L530: 'Oral Argument',
};
const LITIGATION_PHASES = ['L100', 'L200', 'L300', 'L400', 'L500'];

const LITIGATION_2007: Record<string, string> = Object.fromEntries(
  Object.entries({ ...LITIGATION, L360: 'On-site Inspections' }).filter(([c]) => c !== 'L190' && c !== 'L390'),
);

const ACTIVITY: Record<string, string> = {
  A101: 'Plan and prepare for', A102: 'Research', A103: 'Draft/revise', A104: 'Review/analyze',
  A105: 'Communicate (in firm)', A106: 'Communicate (with client)', A107: 'Communicate (other outside counsel)',
  A108: 'Communicate (other external)', A109: 'Appear for/attend', A110: 'Manage data/files', A111: 'Other',
};

const EXPENSE: Record<string, string> = {
  E101: 'Copying', E102: 'Outside printing', E103: 'Word processing', E104: 'Facsimile', E105: 'Telephone',
  E106: 'Online research', E107: 'Delivery services/messengers', E108: 'Postage', E109: 'Local travel',
  E110: 'Out-of-town travel', E111: 'Meals', E112: 'Court fees', E113: 'Subpoena fees', E114: 'Witness fees',
  E115: 'Deposition transcripts', E116: 'Trial transcripts', E117: 'Trial exhibits', E118: 'Litigation support vendors',
  E119: 'Experts', E120: 'Private investigators', E121: 'Arbitrators/mediators', E122: 'Local counsel',
  E123: 'Other professionals', E124: 'Other',
};

const IP_EXPENSE: Record<string, string> = {
  E125: 'Translation', E126: 'Drawings', E127: 'Patent and Trademark Records', E128: 'Searching and Monitoring',
  E129: 'Official Fees (excluding maintenance, renewal and late fees)',
  E130: 'Post-Issuance Patent Maintenance and Trademark Renewal Fees', E131: 'Late Fees',
};

// Values only: the labels of the LOC 2013 revised expense codes were not confirmed ([?]).
const LOC_EXPENSE_2013: Record<string, string> = Object.fromEntries(
  Array.from({ length: 34 }, (_, i) => [`X${101 + i}`, `LOC 2013 expense code X${101 + i}`]),
);

export const CODE_SETS: Readonly<Record<CodeSetId, CodeSet>> = {
  'utbms-litigation': { id: 'utbms-litigation', label: 'UTBMS Litigation (ABA)', codes: LITIGATION, phases: LITIGATION_PHASES },
  'utbms-litigation-2007': { id: 'utbms-litigation-2007', label: 'UTBMS Litigation 2007 (DRI)', codes: LITIGATION_2007, phases: LITIGATION_PHASES },
  'utbms-activity': { id: 'utbms-activity', label: 'UTBMS Activity', codes: ACTIVITY },
  'utbms-activity-2007': { id: 'utbms-activity-2007', label: 'UTBMS Activity 2007 (with A112 Travel)', codes: { ...ACTIVITY, A112: 'Travel' } },
  'utbms-expense': { id: 'utbms-expense', label: 'UTBMS Expense (ABA)', codes: EXPENSE },
  'ip-expense': { id: 'ip-expense', label: 'IP expense codes E125–E131', codes: IP_EXPENSE },
  'loc-expense-2013': { id: 'loc-expense-2013', label: 'LOC 2013 revised expense codes (X-series)', codes: LOC_EXPENSE_2013 },
};

/** LOC 2014 revised timekeeper classifications known from public material; complete from the LOC reference. */
export const TIMEKEEPER_CLASSIFICATIONS_2014: readonly string[] = [
  'PARTNR', 'ASSOC', 'OFCNSL', 'PARLGL', 'LGLAST', 'SECRET', 'CLERK', 'LIBRRN', 'TRAINEE', 'OTHER', 'FLTFEE', 'ADJSMT',
];
/** Pre-2014 classifications: still seen, accepted with a warning. */
export const TIMEKEEPER_CLASSIFICATIONS_LEGACY: readonly string[] = ['PT', 'AS', 'OC', 'LA', 'OT'];

/** Active ISO 4217 alphabetic codes. */
export const ISO_4217: ReadonlySet<string> = new Set(
  ('AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD ' +
    'GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT ' +
    'LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR ' +
    'NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP ' +
    'STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG ' +
    'XOF XPF YER ZAR ZMW ZWG').split(' '),
);
