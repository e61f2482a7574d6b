import { eq } from 'drizzle-orm';
import { users } from '@portal/db';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import type { StoredUpload } from '../../domain/uploads.ts';
import type { AuthState } from '../../domain/auth.ts';
import { recordMail } from '../mail/index.ts';
import { sendCommitted } from './notify.ts';
import { XLSX_CONTENT_TYPE } from '@portal/xlsx';

/** Content types of the accepted extensions, for the attachment. */
const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: XLSX_CONTENT_TYPE,
  csv: 'text/csv',
  txt: 'text/plain',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

const contentTypeOf = (name: string) => CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/**
 * POST /file/send_email_for_new_case: two `new_case` mails in one transaction, to support (from the
 * configuration) with the stored file attached and replying to the sender, and a copy to the sender
 * in its language; both are enqueued after commit. The file stays in storage, referenced by the mail.
 */
export async function sendNewCase(ctx: AppContext, actor: AuthState, upload: StoredUpload | undefined): Promise<void> {
  if (!upload) throw new AppError('error_choose_file');
  if (upload.size === 0) throw new AppError('empty_file');
  const mailIds = await ctx.db.transaction(async (tx) => {
    const [user] = await tx.select({ name: users.companyAgent }).from(users).where(eq(users.id, actor.userId));
    const params = { name: user?.name ?? actor.email, mail: actor.email, filename: upload.originalName };
    const toSupport = await recordMail(tx, {
      recipient: ctx.config.mail.supportAddress,
      template: 'new_case',
      // Support reads French or English; the sender's language decides, as for the contact form.
      locale: actor.langue,
      params,
      replyTo: actor.email,
      attachments: [{ storageKey: upload.key, filename: upload.originalName, contentType: contentTypeOf(upload.originalName), size: upload.size }],
    });
    const copy = await recordMail(tx, { recipient: actor.email, template: 'new_case', locale: actor.langue, params });
    return [toSupport, copy];
  });
  await sendCommitted(ctx, mailIds);
}
