export class MailError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A recipient or reply-to that is not one plain address (e.g. carries CR/LF or a list). */
export class MailAddressError extends MailError {}

/** A template was rendered with a missing or unsafe parameter: a programming error, not retryable. */
export class MailTemplateError extends MailError {}
