import { report, value, type RecordContext } from './context.ts';
import { isValidDate } from './dates.ts';

const SUFFIX = /\[(\d{8})\]$/;
const RENEWAL = /renew|annuit|maintenance|renouvel|maintien/i;
const MAX_CLIENT_MATTER_ID = 20;

/** ANN-001…ANN-004, for invoices of type `annuites` only. */
export function checkAnnuity(ctx: RecordContext): void {
  if (ctx.profile.type !== 'annuites') return;
  const id = value(ctx, 'CLIENT_MATTER_ID');
  const m = SUFFIX.exec(id);
  if (!m) report(ctx, 'ANN-001', 'CLIENT_MATTER_ID');
  else if (!isValidDate(m[1]!)) report(ctx, 'ANN-002', 'CLIENT_MATTER_ID');
  if (id.length > MAX_CLIENT_MATTER_ID) report(ctx, 'ANN-003', 'CLIENT_MATTER_ID');
  if (ctx.lineType === 'E' && RENEWAL.test(value(ctx, 'LINE_ITEM_DESCRIPTION'))) {
    // E131 (late fees) is the right code for the surcharge of a late renewal.
    const code = value(ctx, 'LINE_ITEM_EXPENSE_CODE');
    if (code !== 'E130' && code !== 'E131') report(ctx, 'ANN-004', 'LINE_ITEM_EXPENSE_CODE');
  }
}
