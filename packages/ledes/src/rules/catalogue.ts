/**
 * The rule catalogue of docs `ledes.md` §9, as data. Every finding the engine emits
 * carries one of these codes; labels and default severities come only from here.
 *
 * Codes FMT-009…FMT-015 and XML-001…XML-006 are extensions for stream-level and XML
 * problems that §9 (written for the pipe formats) does not name.
 */
export type Severity = 'error' | 'warning';

export interface RuleDefinition {
  readonly code: string;
  /** Default severity; a finding may carry the alternate one for E/W rules, a profile may override both. */
  readonly severity: Severity;
  /** Present when §9 gives "E/W": the other severity some findings of this rule carry. */
  readonly alternate?: Severity;
  /** Field (or pseudo-field) the rule is about, as written in §9. */
  readonly champ: string;
  readonly en: string;
  readonly fr: string;
  /** LOC standard error code, when known. */
  readonly loc?: string;
}

const E = 'error' as const;
const W = 'warning' as const;

export const RULES = [
  { code: 'FMT-001', severity: E, champ: '(file)', en: 'Unrecognised format token on line 1', fr: 'Identifiant de format non reconnu en ligne 1' },
  { code: 'FMT-002', severity: W, champ: '(file)', en: 'Non-canonical format token (e.g. LEDES1998BI V2) accepted', fr: 'Identifiant de format non canonique accepté' },
  { code: 'FMT-003', severity: E, champ: '(header)', en: 'Header names/order differ from the specification', fr: 'En-tête non conforme (noms ou ordre des champs)' },
  { code: 'FMT-004', severity: E, champ: '(line)', en: 'Wrong number of fields (expected 24 / 52)', fr: 'Nombre de champs incorrect (24 / 52 attendus)' },
  { code: 'FMT-005', severity: E, champ: '(line)', en: 'Record does not end with []', fr: "L’enregistrement ne se termine pas par []" },
  { code: 'FMT-006', severity: W, alternate: E, champ: 'any text', en: 'Non-ASCII or control character', fr: 'Caractère non ASCII ou de contrôle' },
  { code: 'FMT-007', severity: E, champ: 'any', en: 'Literal NULL used as a value', fr: 'Valeur « NULL » littérale interdite' },
  { code: 'FMT-008', severity: E, champ: '(file)', en: 'No line items', fr: 'Aucune ligne de facture' },
  { code: 'FMT-009', severity: E, champ: '(file)', en: 'Unsupported encoding (UTF-16/UTF-32): save the file as UTF-8 or ANSI', fr: 'Encodage non pris en charge (UTF-16/UTF-32) : enregistrer le fichier en UTF-8 ou ANSI' },
  { code: 'FMT-010', severity: E, champ: '(file)', en: 'Binary content: not a text file', fr: 'Contenu binaire : ce n’est pas un fichier texte' },
  { code: 'FMT-011', severity: E, champ: '(line)', en: 'Line longer than the maximum length; line skipped', fr: 'Ligne plus longue que la longueur maximale ; ligne ignorée' },
  { code: 'FMT-012', severity: E, champ: '(line)', en: 'Blank line between records', fr: 'Ligne vide entre deux enregistrements' },
  { code: 'FMT-013', severity: E, champ: '(line)', en: 'NUL byte in the line', fr: 'Octet NUL dans la ligne' },
  { code: 'FMT-015', severity: E, champ: '(file)', en: 'Not a LEDES 1998B, 98BI or XML file: the first line is neither a LEDES format line nor pipe-separated fields', fr: 'Ce n’est pas un fichier LEDES 1998B, 98BI ou XML\u00a0: la première ligne n’est ni une ligne de format LEDES ni des champs séparés par des barres verticales' },
  { code: 'FMT-014', severity: W, champ: '(file)', en: 'Blank lines before the format line; the file is read from its first non-blank line', fr: 'Lignes vides avant la ligne de format ; le fichier est lu à partir de sa première ligne non vide' },
  { code: 'FLD-001', severity: E, champ: 'required field', en: 'Required field is empty', fr: 'Champ obligatoire vide' },
  { code: 'FLD-002', severity: E, champ: 'date fields', en: 'Date not in YYYYMMDD or not a real date', fr: 'Date invalide (format AAAAMMJJ ou date inexistante)' },
  { code: 'FLD-003', severity: E, alternate: W, champ: 'numeric fields', en: 'Invalid number (spaces, commas, symbols, misplaced minus)', fr: 'Nombre invalide (espace, virgule, symbole, signe mal placé)' },
  { code: 'FLD-004', severity: W, alternate: E, champ: 'numeric fields', en: 'Too many decimals for the client profile', fr: 'Trop de décimales pour le profil client' },
  { code: 'FLD-005', severity: E, alternate: W, champ: 'char fields', en: 'Value longer than the maximum length', fr: 'Valeur plus longue que la longueur maximale' },
  { code: 'FLD-006', severity: E, champ: 'EXP/FEE/INV_ADJ_TYPE', en: 'Line type must be F, E, IF or IE', fr: 'Type de ligne attendu : F, E, IF ou IE' },
  { code: 'FLD-007', severity: E, champ: 'INVOICE_CURRENCY / INVOICE_TAX_CURRENCY', en: 'Not an ISO 4217 code', fr: 'Code devise ISO 4217 invalide' },
  { code: 'FLD-008', severity: W, champ: '*_COUNTRY', en: 'Country code not in the expected ISO style', fr: 'Code pays non conforme au format attendu' },
  { code: 'FLD-009', severity: E, champ: 'ACCOUNT_TYPE', en: 'Account type must be O or T', fr: 'Type de compte attendu : O ou T' },
  { code: 'FLD-010', severity: W, champ: 'LINE_ITEM_NUMBER_OF_UNITS', en: 'Hours not in tenths', fr: 'Heures non exprimées en dixièmes' },
  { code: 'FLD-011', severity: E, champ: 'LINE_ITEM_NUMBER_OF_UNITS', en: 'Negative or zero units on F/E line', fr: 'Quantité négative ou nulle sur une ligne F/E' },
  { code: 'MTH-001', severity: E, champ: 'LINE_ITEM_TOTAL', en: 'Line total ≠ units × unit cost + adjustment (+ tax)', fr: 'Total de ligne ≠ quantité × coût unitaire + ajustement (+ taxe)' },
  { code: 'MTH-002', severity: E, champ: 'INVOICE_TOTAL', en: 'Invoice total ≠ sum of line totals', fr: 'Total facture ≠ somme des totaux de ligne' },
  { code: 'MTH-003', severity: W, champ: 'totals', en: 'Difference within rounding tolerance', fr: "Écart dans la tolérance d’arrondi" },
  { code: 'MTH-004', severity: E, champ: 'LINE_ITEM_TAX_TOTAL', en: 'Line tax ≠ taxable base × tax rate', fr: 'Taxe de ligne ≠ base × taux' },
  { code: 'MTH-005', severity: E, champ: 'INVOICE_TAX_TOTAL', en: 'Invoice tax ≠ sum of line taxes', fr: 'Taxe facture ≠ somme des taxes de ligne' },
  { code: 'MTH-006', severity: E, champ: 'INVOICE_NET_TOTAL', en: 'Net total ≠ invoice total − tax total', fr: 'Total HT ≠ total TTC − taxe' },
  { code: 'MTH-007', severity: W, champ: 'LINE_ITEM_TAX_RATE', en: 'Tax rate outside 0–1 (percent written as 20?)', fr: 'Taux hors 0–1 (pourcentage saisi 20 ?)' },
  { code: 'CON-001', severity: E, champ: 'invoice-level fields', en: "Invoice-level value differs from the invoice's first line", fr: 'Valeur d’en-tête différente de la 1re ligne de la facture' },
  { code: 'CON-002', severity: E, champ: 'LINE_ITEM_NUMBER', en: 'Line number duplicated within the invoice', fr: 'Numéro de ligne en double dans la facture' },
  { code: 'CON-003', severity: E, champ: 'BILLING_START/END_DATE', en: 'Billing start after billing end', fr: 'Début de période postérieur à la fin' },
  { code: 'CON-004', severity: W, alternate: E, champ: 'LINE_ITEM_DATE', en: 'Line date outside the billing period', fr: 'Date de ligne hors période de facturation' },
  { code: 'CON-005', severity: W, champ: 'INVOICE_DATE', en: 'Invoice date before end of billing period', fr: 'Date de facture antérieure à la fin de période' },
  { code: 'CON-006', severity: W, champ: 'dates', en: 'Date in the future', fr: 'Date dans le futur' },
  { code: 'CON-007', severity: E, champ: 'INVOICE_NUMBER', en: 'Invoice number already accepted [R401]', fr: 'Numéro de facture déjà accepté [R401]', loc: 'R401' },
  { code: 'COD-001', severity: E, champ: 'LINE_ITEM_TASK_CODE', en: 'Task code missing on fee line', fr: "Code tâche manquant sur une ligne d’honoraires" },
  { code: 'COD-002', severity: E, alternate: W, champ: 'LINE_ITEM_TASK_CODE', en: 'Task code not in the code set of this invoice type', fr: 'Code tâche hors référentiel du type de facture' },
  { code: 'COD-003', severity: E, alternate: W, champ: 'LINE_ITEM_ACTIVITY_CODE', en: 'Activity code missing / unknown', fr: 'Code activité manquant ou inconnu' },
  { code: 'COD-004', severity: E, champ: 'LINE_ITEM_ACTIVITY_CODE', en: 'Activity code without task code', fr: 'Code activité sans code tâche' },
  { code: 'COD-005', severity: E, champ: 'LINE_ITEM_EXPENSE_CODE', en: 'Expense code missing / unknown on expense line', fr: 'Code frais manquant ou inconnu sur une ligne de frais' },
  { code: 'COD-006', severity: W, champ: 'codes', en: 'Code present on a line type that does not use it', fr: "Code présent sur un type de ligne qui ne l’utilise pas" },
  { code: 'TK-001', severity: E, champ: 'TIMEKEEPER_ID/NAME/CLASSIFICATION', en: 'Timekeeper data missing on fee line', fr: "Données intervenant manquantes sur ligne d’honoraires" },
  { code: 'TK-002', severity: W, champ: 'TIMEKEEPER_NAME', en: 'Name not in "Last, First" form', fr: 'Nom non au format « Nom, Prénom »' },
  { code: 'TK-003', severity: E, alternate: W, champ: 'TIMEKEEPER_CLASSIFICATION', en: 'Unknown classification code', fr: "Code de catégorie d’intervenant inconnu" },
  { code: 'TK-004', severity: W, champ: 'LINE_ITEM_UNIT_COST', en: 'Same timekeeper billed at different rates', fr: 'Même intervenant facturé à des taux différents' },
  { code: 'ANN-001', severity: E, champ: 'CLIENT_MATTER_ID', en: 'Annuity invoice: CLIENT_MATTER_ID must end with [YYYYMMDD]', fr: 'Annuités : CLIENT_MATTER_ID doit se terminer par [AAAAMMJJ]' },
  { code: 'ANN-002', severity: E, champ: 'CLIENT_MATTER_ID', en: 'Due date in suffix is not a real date', fr: "Date d’échéance du suffixe invalide" },
  { code: 'ANN-003', severity: E, champ: 'CLIENT_MATTER_ID', en: 'Identifier with suffix exceeds 20 characters', fr: 'Identifiant avec suffixe > 20 caractères' },
  { code: 'ANN-004', severity: W, champ: 'LINE_ITEM_EXPENSE_CODE', en: 'Renewal fee line not coded E130', fr: 'Ligne de taxe de renouvellement non codée E130' },
  { code: 'GDL-001', severity: W, champ: 'LINE_ITEM_DESCRIPTION', en: 'Narrative too long / too vague / block billing suspected', fr: 'Libellé trop long, trop vague ou regroupé' },
  { code: 'GDL-101', severity: W, champ: 'LINE_ITEM_UNIT_COST', en: "Client guidelines: rate above the cap for this timekeeper classification", fr: 'Directives du client\u00a0: taux supérieur au plafond de cette catégorie d’intervenant' },
  { code: 'GDL-102', severity: W, champ: 'LINE_ITEM_NUMBER_OF_UNITS', en: "Client guidelines: more units in one day for this timekeeper than allowed, across the firm's invoices", fr: 'Directives du client\u00a0: plus d’unités en un jour pour cet intervenant que permis, toutes factures du cabinet comprises' },
  { code: 'GDL-103', severity: W, champ: 'LINE_ITEM_DESCRIPTION', en: 'Client guidelines: block billing (several tasks in one line above the unit threshold)', fr: 'Directives du client\u00a0: facturation groupée (plusieurs tâches sur une ligne au-delà du seuil d’unités)' },
  { code: 'GDL-104', severity: W, champ: 'codes', en: 'Client guidelines: code not allowed', fr: 'Directives du client\u00a0: code non autorisé' },
  { code: 'GDL-105', severity: W, champ: 'codes', en: 'Client guidelines: code allowed only for other matters', fr: 'Directives du client\u00a0: code autorisé seulement pour d’autres dossiers' },
  { code: 'GDL-106', severity: W, champ: 'LINE_ITEM_UNIT_COST', en: 'Client guidelines: expense unit cost above the cap', fr: 'Directives du client\u00a0: coût unitaire du frais supérieur au plafond' },
  { code: 'GDL-107', severity: W, champ: 'LINE_ITEM_EXPENSE_CODE', en: 'Client guidelines: this expense needs a receipt', fr: 'Directives du client\u00a0: ce frais doit être justifié par un reçu' },
  { code: 'GDL-108', severity: W, champ: 'BILLING_START/END_DATE', en: 'Client guidelines: billing period longer than allowed (days)', fr: 'Directives du client\u00a0: période de facturation plus longue que permis (jours)' },
  { code: 'GDL-109', severity: W, champ: 'BILLING_END_DATE', en: 'Client guidelines: uploaded too long after the end of the billing period (days)', fr: 'Directives du client\u00a0: déposée trop longtemps après la fin de la période de facturation (jours)' },
  { code: 'GDL-110', severity: W, champ: 'LINE_ITEM_DESCRIPTION', en: 'Client guidelines: duplicate of an earlier line of this file (same timekeeper, date, units and description)', fr: 'Directives du client\u00a0: doublon d’une ligne précédente du fichier (même intervenant, date, unités et libellé)' },
  { code: 'GDL-111', severity: W, champ: 'LINE_ITEM_DESCRIPTION', en: "Client guidelines: duplicate of a line of an earlier invoice of the firm (same timekeeper, date, units and description)", fr: 'Directives du client\u00a0: doublon d’une ligne d’une facture antérieure du cabinet (même intervenant, date, unités et libellé)' },
  { code: 'XML-001', severity: E, champ: '(file)', en: 'XML DOCTYPE / DTD refused; parsing stopped', fr: 'DOCTYPE / DTD XML refusé ; analyse interrompue' },
  { code: 'XML-002', severity: E, champ: '(file)', en: 'XML not well-formed', fr: 'XML mal formé' },
  { code: 'XML-003', severity: E, champ: '(file)', en: 'Unsupported or missing LEDES XML version (2.0, 2.1, 2.2 expected)', fr: 'Version LEDES XML absente ou non prise en charge (2.0, 2.1, 2.2 attendues)' },
  { code: 'XML-004', severity: E, champ: '(segment)', en: 'Required XML segment or element missing', fr: 'Segment ou élément XML obligatoire manquant' },
  { code: 'XML-005', severity: E, champ: 'totals', en: 'XML fee/expense/tax/invoice total ≠ sum of its items', fr: 'Total XML honoraires/frais/taxes/facture ≠ somme de ses éléments' },
  { code: 'XML-006', severity: E, champ: 'file_item_nbr', en: 'file_item_nbr duplicated', fr: 'file_item_nbr en double' },
] as const satisfies readonly RuleDefinition[];

export type RuleCode = (typeof RULES)[number]['code'];

export const RULE_BY_CODE: ReadonlyMap<RuleCode, RuleDefinition> = new Map(
  RULES.map((r) => [r.code, r as RuleDefinition]),
);

export function ruleOf(code: RuleCode): RuleDefinition {
  // The map is built from the same literal list the type comes from, so this never misses.
  return RULE_BY_CODE.get(code)!;
}
