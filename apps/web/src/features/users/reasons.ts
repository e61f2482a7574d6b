import { ApiError } from '../../lib/api.ts';
import { msg, type Message } from '../../lib/message.tsx';

/** Why a users call failed, as a message of the UI (never the server's text, which stays in the language it was sent in). */
export function failureReason(err: Error): Message {
  if (!(err instanceof ApiError)) return msg('users:add.reasons.unexpected');
  if (err.code === 'network_error') return msg('users:add.reasons.network');
  if (err.isServerError) return msg('users:add.serverError');
  if (err.code === 'register_failed') return msg('users:add.reasons.exists');
  if (err.code === 'unauthorized' || err.code === 'forbidden' || err.code === 'csrf_rejected') return msg('users:add.reasons.session');
  if (Object.keys(err.fields).length > 0) return msg('users:add.reasons.fields');
  return msg('users:add.reasons.unexpected');
}
