import { quoted } from '../findings.ts';
import { CODE_SETS, type CodeSetId } from '../codesets.ts';
import type { LedesProfile } from '../profiles.ts';
import { at, report, type RecordContext } from './context.ts';

export interface AllowedCodes {
  readonly tasks: ReadonlySet<string>;
  readonly taskPhases: ReadonlySet<string>;
  readonly activities: ReadonlySet<string>;
  /** Activity codes of any shipped set, to tell "not enabled here" (warning) from "unknown". */
  readonly knownActivities: ReadonlySet<string>;
  readonly expenses: ReadonlySet<string>;
}

function union(ids: readonly CodeSetId[]): Set<string> {
  return new Set(ids.flatMap((id) => Object.keys(CODE_SETS[id].codes)));
}

export function allowedCodes(profile: LedesProfile): AllowedCodes {
  return {
    tasks: new Set([...union(profile.taskCodeSets), ...profile.extraTaskCodes]),
    taskPhases: new Set(profile.taskCodeSets.flatMap((id) => CODE_SETS[id].phases ?? [])),
    activities: union(profile.activityCodeSets),
    knownActivities: union(['utbms-activity', 'utbms-activity-2007']),
    expenses: union(profile.expenseCodeSets),
  };
}

/** COD-001…COD-006. */
export function checkCodes(ctx: RecordContext, codes: AllowedCodes): void {
  const { cols } = ctx.format;
  const task = at(ctx, cols.task);
  const activity = at(ctx, cols.activity);
  const expense = at(ctx, cols.expense);
  const { profile } = ctx;
  switch (ctx.lineType) {
    case 'F':
      if (task === '') {
        if (profile.requireTaskCode) report(ctx, 'COD-001', 'LINE_ITEM_TASK_CODE');
      } else if (codes.taskPhases.has(task)) {
        // Phase headings are valid codes but normally not billed ([?]).
        report(ctx, 'COD-002', 'LINE_ITEM_TASK_CODE', 'warning', { found: quoted(task) });
      } else if (!codes.tasks.has(task)) {
        report(ctx, 'COD-002', 'LINE_ITEM_TASK_CODE', undefined, { found: quoted(task) });
      }
      if (activity === '') {
        if (profile.requireActivityCode) report(ctx, 'COD-003', 'LINE_ITEM_ACTIVITY_CODE');
      } else if (!codes.activities.has(activity)) {
        report(ctx, 'COD-003', 'LINE_ITEM_ACTIVITY_CODE', codes.knownActivities.has(activity) ? 'warning' : undefined, { found: quoted(activity) });
      }
      if (expense !== '') report(ctx, 'COD-006', 'LINE_ITEM_EXPENSE_CODE');
      break;
    case 'E':
      if (expense === '') report(ctx, 'COD-005', 'LINE_ITEM_EXPENSE_CODE');
      else if (!codes.expenses.has(expense)) report(ctx, 'COD-005', 'LINE_ITEM_EXPENSE_CODE', undefined, { found: quoted(expense) });
      if (task !== '') report(ctx, 'COD-006', 'LINE_ITEM_TASK_CODE');
      if (activity !== '') report(ctx, 'COD-006', 'LINE_ITEM_ACTIVITY_CODE');
      break;
    case 'IF':
    case 'IE':
      for (const [name, v] of [['LINE_ITEM_TASK_CODE', task], ['LINE_ITEM_ACTIVITY_CODE', activity], ['LINE_ITEM_EXPENSE_CODE', expense]] as const) {
        if (v !== '') report(ctx, 'COD-006', name);
      }
      break;
    default:
      break;
  }
  if (activity !== '' && task === '' && ctx.lineType !== 'E') report(ctx, 'COD-004', 'LINE_ITEM_ACTIVITY_CODE');
}
