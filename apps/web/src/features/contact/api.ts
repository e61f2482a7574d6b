import type { ContactBody, MessageResponse } from '@portal/contracts';
import { api } from '../../lib/api.ts';

/** POST /contact: one message to support. */
export function sendContact(body: ContactBody) {
  return api<MessageResponse>('/contact', { method: 'POST', body });
}
