import { contactBody } from '@portal/contracts';
import { serverT } from '@portal/i18n';
import type { AppContext } from '../../context.ts';
import { AppError, requestLocale } from '../../http/errors.ts';
import type { Route } from '../../http/routes.ts';
import { parse } from '../../http/validate.ts';
import { enqueueCommitted } from '../../jobs/enqueue.ts';
import { recordMail } from '../mail/outbox.ts';

export function contactRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'POST',
      path: '/contact',
      async handler(req) {
        const body = parse(contactBody, req.body);
        if (!(await ctx.limits.contact.allow(req.ip ?? 'unknown'))) throw new AppError('rate_limited');
        // Support reads French or English; the sender's interface language decides.
        const mailId = await recordMail(ctx.db, {
          recipient: ctx.config.mail.supportAddress,
          template: 'contact',
          locale: requestLocale(req),
          params: { mail: body.mail, issue: body.issue, topic: body.topic, details: body.details },
          replyTo: body.mail,
        });
        await enqueueCommitted(ctx, 'mail', [{ mailId }]);
        return { success: true, message: serverT(requestLocale(req))('api:mail_sent') };
      },
    },
  ];
}
