// The mail module's public entry: other modules record their mail through it (the mail worker sends it).
export { recordMail, type OutgoingAttachment, type OutgoingMail } from './service.ts';
