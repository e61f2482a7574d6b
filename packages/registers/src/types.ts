/**
 * The port: what the register sync needs to know about an EP (or UP) patent, in domain terms. Nothing here
 * names OPS or its XML; a second driver (a national register, a commercial feed) returns the same shapes.
 */

/** An EP number the register knows a file by: the 8-digit application number, or the 7-digit publication number. */
export interface EpNumber {
  readonly kind: 'application' | 'publication';
  /** Digits only: 8 for an application (without the check digit), 7 for a publication (without kind code). */
  readonly digits: string;
}

/** Calendar dates are ISO `YYYY-MM-DD` strings (the offices publish dates, not instants). */
export type IsoDate = string;

/** A renewal fee the EP register records as paid to the EPO (procedural step `RFEE`). */
export interface RenewalFeePayment {
  readonly code: 'RFEE';
  /** Patent year the fee is for (3rd, 4th, …). */
  readonly year: number;
  readonly paidOn: IsoDate;
  readonly url: string;
}

/**
 * The EP file's status as the register words it (`ep-patent-status`), with the state the portal reads from it.
 * `state` is derived from the wording (the register's status codes are not published as a stable list).
 */
export type EpState = 'pending' | 'granted' | 'withdrawn' | 'refused' | 'revoked' | 'lapsed' | 'expired' | 'unknown';

export interface EpStatus {
  readonly state: EpState;
  /** The register's own words, e.g. "No opposition filed within time limit". */
  readonly text: string;
  readonly code: string | null;
  readonly since: IsoDate | null;
}

export type UnitaryState = 'none' | 'requested' | 'registered' | 'rejected' | 'other';

export interface UnitaryEffect {
  readonly state: UnitaryState;
  readonly text: string | null;
  readonly code: string | null;
  /** The date of the latest unitary status (for `registered`: the registration's entry in the register). */
  readonly since: IsoDate | null;
}

/** A contracting state the EP register lists as lapsed (`term-of-grant/lapsed-in-country`). */
export interface RegisterLapse {
  readonly country: string;
  readonly lapsedOn: IsoDate;
}

export interface EpRegisterRecord {
  readonly application: string | null;
  readonly publication: string | null;
  readonly status: EpStatus;
  readonly renewals: readonly RenewalFeePayment[];
  readonly unitary: UnitaryEffect;
  readonly lapses: readonly RegisterLapse[];
  /** The register page a person opens to check (`https://register.epo.org/application?number=EP…`). */
  readonly url: string;
  /** When the register produced the document (`date-produced`), if said. */
  readonly producedOn: IsoDate | null;
}

/** INPADOC legal events the annuities read (annuities.md §4): national fees paid, national lapses. */
export type LegalEvent =
  | {
      readonly kind: 'annual_fee_paid';
      /** `PGFP` (annual fee paid to a national office, reported to the EPO) or `PLFP` (FR national code: fee paid). */
      readonly code: 'PGFP' | 'PLFP';
      readonly country: string;
      readonly year: number | null;
      /** The payment date when the office gives one (PGFP `Payment DATE`); PLFP carries none. */
      readonly paidOn: IsoDate | null;
      readonly publishedOn: IsoDate | null;
      readonly url: string;
    }
  | {
      readonly kind: 'lapsed';
      /** `PG25`: lapsed in a contracting state. */
      readonly code: 'PG25';
      readonly country: string;
      readonly effectiveOn: IsoDate | null;
      readonly publishedOn: IsoDate | null;
      /** The office's free text ("LAPSE BECAUSE OF NON-PAYMENT OF DUE FEES"), if any. */
      readonly reason: string | null;
      readonly url: string;
    };

export interface LegalEventsRecord {
  /** EP application number of the family member the events hang on, when the answer names it. */
  readonly application: string | null;
  readonly events: readonly LegalEvent[];
}

export type RegisterLookup<T> = { readonly found: true; readonly record: T } | { readonly found: false; readonly number: EpNumber };

/** The service's traffic light for one kind of call, as the last answer reported it. */
export type ThrottleColour = 'green' | 'yellow' | 'red' | 'black';

export interface Pacing {
  /** `idle`, `busy`, `overloaded` (OPS's words), or null before the first answer. */
  readonly system: string | null;
  readonly services: Readonly<Record<string, { colour: ThrottleColour; perMinute: number }>>;
  /** Bytes used this hour and this week, as the service counts them (null when not said). */
  readonly hourlyUsed: number | null;
  readonly weeklyUsed: number | null;
  /** The earliest moment the next call should start (a caller waits until then). */
  readonly nextCallAt: Date;
}

export interface RegisterSource {
  readonly id: string;
  /** The EP register's file: status, renewal fees paid to the EPO, unitary effect, lapses it lists. */
  readEpRegister(number: EpNumber, signal?: AbortSignal): Promise<RegisterLookup<EpRegisterRecord>>;
  /** National events of the EP patent (validations): fees paid to national offices, lapses. */
  readLegalEvents(number: EpNumber, signal?: AbortSignal): Promise<RegisterLookup<LegalEventsRecord>>;
  /** What the service said about its load and the caller's quota; a caller paces itself on it. */
  pacing(): Pacing;
}
