export type {
  EpNumber,
  EpRegisterRecord,
  EpState,
  EpStatus,
  IsoDate,
  LegalEvent,
  LegalEventsRecord,
  Pacing,
  RegisterLapse,
  RegisterLookup,
  RegisterSource,
  RenewalFeePayment,
  ThrottleColour,
  UnitaryEffect,
  UnitaryState,
} from './types.ts';
export {
  RegisterBadRequestError,
  RegisterError,
  RegisterMalformedAnswerError,
  RegisterQuotaExhaustedError,
  RegisterThrottledError,
  RegisterUnauthorisedError,
  RegisterUnavailableError,
  type RegisterErrorCode,
} from './errors.ts';
export { createRegisterSource, epNumberOf, type RegistersConfig } from './factory.ts';
export { OpsRegisterSource, type OpsOptions } from './ops/driver.ts';
export { minimumIntervalMs, parseRetryAfter, parseThrottleControl, type OpsService, type ThrottleControl } from './ops/throttling.ts';
