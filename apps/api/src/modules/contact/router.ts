import { contactBody, messageResponse } from '@portal/contracts';
import type { AppContext } from '../../context.ts';
import { defineRoute, type Route } from '../../http/routes.ts';
import { enqueueCommitted } from '@portal/jobs';
import { recordMail } from '../mail/index.ts';

export function contactRoutes(ctx: AppContext): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/contact',
      summary: 'Sends the contact form to support',
      body: contactBody,
      response: messageResponse,
      async handler({ body }, { req, locale, t }) {
        await ctx.limits.contact.consume(req.ip ?? 'unknown');
        // Support reads French or English; the sender's interface language decides.
        const mailId = await recordMail(ctx.db, {
          recipient: ctx.config.mail.supportAddress,
          template: 'contact',
          locale,
          // The labels the sender chose on the form, in the mail's language (support read "ledes_verification" before).
          params: { mail: body.mail, issue: t(`contact:issues.${body.issue}`), topic: t(`contact:topics.${body.topic}`), details: body.details },
          replyTo: body.mail,
        });
        await enqueueCommitted(ctx, 'mail', [{ mailId }]);
        return { success: true, message: t('api:mail_sent') };
      },
    }),
  ];
}
