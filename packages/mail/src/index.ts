export { createMailTransport, type MailAttachment, type MailMessage, type MailTransport, type MailTransportConfig } from './transport.ts';
export { renderMail, MAIL_TEMPLATES, type MailTemplate, type RenderedMail } from './templates.ts';
export { MailError, MailAddressError, MailTemplateError } from './errors.ts';
export { escapeHtml, toHeaderValue } from './sanitize.ts';
