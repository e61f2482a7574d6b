import { sql } from 'drizzle-orm';
import type { RenewalCallSettingsBody, RenewalCallSettingsDto } from '@portal/contracts';
import { renewalCallSettings } from '@portal/db';
import { DEFAULT_CALL_SETTINGS, rowsOf } from '@portal/jobs';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';

interface SettingsRow {
  cabinet_id: string;
  cabinet: string;
  window_days: number | null;
  margin_days: number | null;
  reminder_days: number | null;
  updated_at: string | null;
  updated_by: string | null;
}

const toDto = (r: SettingsRow): RenewalCallSettingsDto => ({
  cabinet_id: r.cabinet_id,
  cabinet: r.cabinet,
  window_days: r.window_days ?? DEFAULT_CALL_SETTINGS.windowDays,
  margin_days: r.margin_days ?? DEFAULT_CALL_SETTINGS.marginDays,
  reminder_days: r.reminder_days ?? DEFAULT_CALL_SETTINGS.reminderDays,
  saved: r.window_days !== null,
  updated_at: r.updated_at,
  updated_by: r.updated_by,
});

const SELECT = sql`select c.id as cabinet_id, c.name as cabinet, s.window_days, s.margin_days, s.reminder_days,
  to_char(s.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as updated_at, u.email as updated_by
  from cabinets c left join renewal_call_settings s on s.cabinet_id = c.id left join users u on u.id = s.updated_by`;

/** Every cabinet's call settings (the defaults where none were saved), by name. */
export async function listCallSettings(ctx: AppContext): Promise<RenewalCallSettingsDto[]> {
  return rowsOf<SettingsRow>(await ctx.db.execute(sql`${SELECT} order by c.name, c.id`)).map(toDto);
}

/** Saves a cabinet's settings (the next run gathers and steps by them), with who saved them and when. */
export async function saveCallSettings(ctx: AppContext, cabinetId: string, body: RenewalCallSettingsBody, userId: string): Promise<RenewalCallSettingsDto> {
  const [exists] = rowsOf<{ id: string }>(await ctx.db.execute(sql`select id from cabinets where id = ${cabinetId}`));
  if (!exists) throw new AppError('not_found');
  const values = { windowDays: body.window_days, marginDays: body.margin_days, reminderDays: body.reminder_days, updatedAt: ctx.clock.now(), updatedBy: userId };
  await ctx.db.insert(renewalCallSettings).values({ cabinetId, ...values }).onConflictDoUpdate({ target: renewalCallSettings.cabinetId, set: values });
  const [row] = rowsOf<SettingsRow>(await ctx.db.execute(sql`${SELECT} where c.id = ${cabinetId}`));
  return toDto(row!);
}
