/**
 * The EPO's closing days under Rule 134(1) EPC, as published each year in the Official Journal:
 * the union of the days the filing offices of Munich, The Hague and Berlin are closed, Monday to
 * Friday (Saturdays and Sundays are always closing days; Vienna and Brussels are not filing offices).
 * Only years whose whole list was read from an official text are in `EPO_CLOSING_DAYS`; the research
 * notes with each day's office and the sources are summarised in docs/annuity-rules.md.
 *
 * A year without a published list is computed from rules (`EPO_CLOSED_EVERY_LIST`,
 * `EPO_CLOSED_IN_SOME_LIST`) plus the closures the EPO confirmed for it, and flagged provisional.
 */

export interface EpoClosingYear {
  readonly year: number;
  /** The Official Journal notice (or EPO notice) the list was read from. */
  readonly reference: string;
  /** YYYY-MM-DD, Monday to Friday only. */
  readonly days: readonly string[];
}

export const EPO_CLOSING_DAYS: readonly EpoClosingYear[] = [
  {
    year: 2015,
    reference: 'OJ EPO 2014, A108',
    days: [
      '2015-01-01', '2015-01-02', '2015-01-06', '2015-04-03', '2015-04-06', '2015-04-27', '2015-05-01', '2015-05-05', '2015-05-14',
      '2015-05-25', '2015-06-04', '2015-12-24', '2015-12-25', '2015-12-28', '2015-12-29', '2015-12-30', '2015-12-31',
    ],
  },
  {
    year: 2017,
    // 31 Oct 2017: the offices were open but no mail was delivered in Germany; the EPO extended the
    // periods expiring that day under Rule 134(1) (EPO notice of 16 October 2017).
    reference: 'OJ EPO 2016, A74; EPO notice of 16 October 2017 (31 October 2017)',
    days: [
      '2017-01-06', '2017-04-14', '2017-04-17', '2017-04-27', '2017-05-01', '2017-05-05', '2017-05-25', '2017-06-05', '2017-06-15',
      '2017-08-15', '2017-10-03', '2017-10-31', '2017-11-01', '2017-12-25', '2017-12-26', '2017-12-27', '2017-12-28', '2017-12-29',
    ],
  },
  {
    year: 2020,
    // The COVID-19 closure of 24 Dec 2020 to 10 Jan 2021 extended periods to 11 January 2021 (EPO notice
    // of 17 December 2020): its 2021 days are in EPO_CONFIRMED_CLOSURES.
    reference: 'OJ EPO 2019, A97; EPO notice of 17 December 2020 (closure until 10 January 2021)',
    days: [
      '2020-01-01', '2020-01-06', '2020-04-10', '2020-04-13', '2020-04-27', '2020-05-01', '2020-05-05', '2020-05-21', '2020-06-01',
      '2020-06-11', '2020-12-24', '2020-12-25', '2020-12-28', '2020-12-29', '2020-12-30', '2020-12-31',
    ],
  },
  {
    year: 2023,
    reference: 'OJ EPO 2022, A107',
    days: [
      '2023-01-06', '2023-03-08', '2023-04-07', '2023-04-10', '2023-04-27', '2023-05-01', '2023-05-05', '2023-05-18', '2023-05-29',
      '2023-06-08', '2023-08-15', '2023-10-03', '2023-11-01', '2023-12-25', '2023-12-26', '2023-12-27', '2023-12-28', '2023-12-29',
    ],
  },
];

/**
 * Closures the EPO announced for years whose whole list was not read: certain days, not a complete
 * list (inclusive ranges; weekend days inside them are closed anyway).
 */
export const EPO_CONFIRMED_CLOSURES: readonly { readonly from: string; readonly to: string; readonly source: string }[] = [
  { from: '2018-05-31', to: '2018-05-31', source: 'EPO notice of 9 May 2018 (no mail delivered in Munich; Rule 134(1))' },
  { from: '2018-08-15', to: '2018-08-15', source: 'EPO notice of 9 May 2018 (no mail delivered in Munich; Rule 134(1))' },
  { from: '2018-12-24', to: '2019-01-01', source: 'EPO notice of 12 December 2018' },
  { from: '2021-01-01', to: '2021-01-10', source: 'EPO notice of 17 December 2020 (closure extended until 10 January 2021)' },
  { from: '2021-12-24', to: '2022-01-02', source: 'EPO notice of 14 December 2021' },
  { from: '2022-12-24', to: '2023-01-01', source: 'EPO notice of 7 December 2022' },
  { from: '2024-12-24', to: '2025-01-01', source: 'EPO notice "EPO offices closed from 24 December 2024 to 1 January 2025"' },
  { from: '2025-12-24', to: '2026-01-01', source: 'EPO notice "EPO offices closed from 24 December 2025 to 1 January 2026"' },
  // 2024: Munich's list read whole, The Hague's in part, Berlin's not (epo.org "Office holidays").
  { from: '2024-01-01', to: '2024-01-01', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-03-29', to: '2024-04-01', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-05-01', to: '2024-05-01', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-05-09', to: '2024-05-09', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-05-20', to: '2024-05-20', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-05-30', to: '2024-05-30', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-08-15', to: '2024-08-15', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-10-03', to: '2024-10-03', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-11-01', to: '2024-11-01', source: 'epo.org Office holidays 2024 (Munich)' },
  { from: '2024-12-24', to: '2024-12-31', source: 'epo.org Office holidays 2024 (Munich)' },
];
