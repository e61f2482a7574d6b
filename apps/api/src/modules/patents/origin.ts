import { isOrigin, type Origin } from '@portal/annuities/core';

/**
 * The engine's origin from the back office's `Origine` text: one of its own codes, a usual French or
 * English word, or (empty) what the office implies: EP a pending European application, UP unitary,
 * else national.
 */
export function originOf(office: string, text: string | null): Origin | null {
  const value = (text ?? '').trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (value === '') return office === 'EP' ? 'ep_application' : office === 'UP' ? 'unitary' : 'national';
  if (isOrigin(value)) return value;
  if (/^(unitar|unitair|up$)/.test(value)) return 'unitary';
  if (/^(valid|ep national|europeen valide)/.test(value)) return 'ep_validated';
  if (/^(pending|demande|ep application|ep$)/.test(value)) return office === 'EP' ? 'ep_application' : 'ep_validated';
  if (/^nation/.test(value)) return 'national';
  return null;
}
