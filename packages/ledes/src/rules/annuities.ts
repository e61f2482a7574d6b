import { at, report, type RecordContext } from './context.ts';
import { isValidDate } from './dates.ts';

const SUFFIX = /\[(\d{8})\]$/;
const RENEWAL = /renew|annuit|maintenance|renouvel|maintien/i;
const MAX_CLIENT_MATTER_ID = 20;

/** ANN-001…ANN-004, for invoices of type `annuites` only. */
export function checkAnnuity(ctx: RecordContext): void {
  if (ctx.profile.type !== 'annuites') return;
  const { cols } = ctx.format;
  const id = at(ctx, cols.clientMatterId);
  const m = SUFFIX.exec(id);
  if (!m) report(ctx, 'ANN-001', 'CLIENT_MATTER_ID');
  else if (!isValidDate(m[1]!)) report(ctx, 'ANN-002', 'CLIENT_MATTER_ID');
  if (id.length > MAX_CLIENT_MATTER_ID) report(ctx, 'ANN-003', 'CLIENT_MATTER_ID');
  if (ctx.lineType === 'E' && RENEWAL.test(at(ctx, cols.description))) {
    // E131 (late fees) is the right code for the surcharge of a late renewal.
    const code = at(ctx, cols.expense);
    if (code !== 'E130' && code !== 'E131') report(ctx, 'ANN-004', 'LINE_ITEM_EXPENSE_CODE');
  }
}
