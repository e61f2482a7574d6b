import { sql } from 'drizzle-orm';
import { computeSchedule, formatIsoDate, OFFICES, parseIsoDate, UNITARY_STATES, type Office, type Origin } from '@portal/annuities/core';
import type { Database } from '@portal/db';
import { rateOn, rowsOf, scheduleColumnsOf, type RateTable } from './rows.ts';
import { recheckSchedules } from './schedule-check.ts';

/**
 * A realistic demo portfolio (`npm run seed:demo`, `--patents N`) and the bench's: cabinets and
 * client codes, one agent per cabinet owning it and another cabinet's code, every office and origin,
 * every instruction status, every lock case (limit date passed, acquitted, office paid, mail reply,
 * client paid, validated), rows with missing information, and a few currency rates. Deterministic
 * (a seeded generator), idempotent (idagenda `DEMO-000001`…, `on conflict do nothing`), written with
 * one `unnest` statement per 5,000 patents. Due dates, annuity numbers and fees are the engine's, and
 * every record is checked against it as the other write paths do (then any unchecked record is).
 */
export interface DemoPortfolioOptions {
  patents: number;
  cabinets: number;
  /** The day limit dates are spread around (YYYY-MM-DD). */
  today: string;
  /** Password hash of the agents created (the demo password's). */
  passwordHash: string | null;
}

export interface DemoPortfolioResult {
  cabinets: number;
  agents: Array<{ email: string; cabinet: string; codes: string[] }>;
  patents: number;
}

const CHUNK = 5000;
const COUNTRIES: readonly Office[] = OFFICES;

/** mulberry32: small, fast, deterministic. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const pad = (n: number, width: number) => String(n).padStart(width, '0');

function originsOf(office: Office): Origin[] {
  if (office === 'EP') return ['ep_application'];
  if (office === 'UP') return ['unitary'];
  return UNITARY_STATES.has(office) ? ['national', 'ep_validated', 'unitary'] : ['national', 'ep_validated'];
}

export const DEMO_CURRENCY_RATES = [
  { currency: 'GBP', validFrom: '2024-01-01', eurPerUnit: '1.16000000' },
  { currency: 'GBP', validFrom: '2026-01-01', eurPerUnit: '1.18000000' },
  { currency: 'SEK', validFrom: '2024-01-01', eurPerUnit: '0.08700000' },
  { currency: 'SEK', validFrom: '2026-01-01', eurPerUnit: '0.09100000' },
  { currency: 'USD', validFrom: '2024-01-01', eurPerUnit: '0.92000000' },
  { currency: 'CHF', validFrom: '2024-01-01', eurPerUnit: '1.04000000' },
];

/** The demo rates by currency, oldest first, as the import reads `currency_rates`. */
const DEMO_RATES: RateTable = new Map(
  [...new Set(DEMO_CURRENCY_RATES.map((r) => r.currency))].map((currency) => [
    currency,
    DEMO_CURRENCY_RATES.filter((r) => r.currency === currency).map((r) => ({ validFrom: r.validFrom, eurPerUnit: Number(r.eurPerUnit) })),
  ]),
);

type Column = { name: string; type: string; values: unknown[] };

export async function seedDemoPortfolio(db: Database, options: DemoPortfolioOptions): Promise<DemoPortfolioResult> {
  const random = generator(11);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  const cabinetNames = Array.from({ length: options.cabinets }, (_v, i) => `Cabinet Démo ${pad(i + 1, 2)}`);
  await db.execute(sql`insert into cabinets (name) select unnest(${sql.param(cabinetNames)}::text[]) on conflict (name) do nothing`);
  const cabinetRows = rowsOf<{ id: string; name: string }>(await db.execute(sql`select id, name from cabinets where name = any(${sql.param(cabinetNames)}::text[]) order by name`));
  const codes = cabinetRows.map((_c, i) => [`DEMO${pad(2 * i + 1, 3)}`, `DEMO${pad(2 * i + 2, 3)}`] as const);

  await db.execute(sql`
    insert into currency_rates (currency, valid_from, eur_per_unit)
    select * from unnest(${sql.param(DEMO_CURRENCY_RATES.map((r) => r.currency))}::text[], ${sql.param(DEMO_CURRENCY_RATES.map((r) => r.validFrom))}::date[],
      ${sql.param(DEMO_CURRENCY_RATES.map((r) => r.eurPerUnit))}::numeric[])
    on conflict do nothing`);

  // One agent per cabinet: its cabinet, and the second client code of the next cabinet (scope = cabinets OR codes).
  const agents: DemoPortfolioResult['agents'] = [];
  const [role] = rowsOf<{ id: string }>(await db.execute(sql`select id from roles where slug = 'user_agent_annuites'`));
  if (role) {
    for (let i = 0; i < cabinetRows.length; i++) {
      const cabinet = cabinetRows[i]!;
      const agentCodes = [codes[(i + 1) % codes.length]![1]];
      const email = `agent.annuites.${pad(i + 1, 2)}@portal.local`;
      const langue = i % 2 === 0 ? 'fr' : 'en';
      const inserted = rowsOf<{ id: string }>(
        await db.execute(sql`
          insert into users (company_agent, email, password_hash, langue, code)
          values (${`Agent annuités ${pad(i + 1, 2)}`}, ${email}, ${options.passwordHash}, ${langue}, ${sql.param(agentCodes)}::text[])
          on conflict do nothing returning id`),
      );
      const user = inserted[0];
      if (user) {
        await db.execute(sql`insert into user_roles (user_id, role_id) values (${user.id}, ${role.id}) on conflict do nothing`);
        await db.execute(sql`insert into user_cabinets (user_id, cabinet_id) values (${user.id}, ${cabinet.id}) on conflict do nothing`);
      }
      agents.push({ email, cabinet: cabinet.name, codes: agentCodes });
    }
  }

  const today = parseIsoDate(options.today)!;
  let written = 0;
  for (let start = 0; start < options.patents; start += CHUNK) {
    const end = Math.min(options.patents, start + CHUNK);
    const columns: Record<string, Column> = {};
    const column = (name: string, type: string) => (columns[name] ??= { name, type, values: [] });
    for (let n = start; n < end; n++) {
      const c = Math.floor(random() * cabinetRows.length);
      const office = COUNTRIES[n % COUNTRIES.length]!;
      const origin = pick(originsOf(office));
      const filing = addDays(options.today, -Math.floor(365 * (2 + random() * 16)));
      // The annuity, its due date and its fee are the engine's (issue 25 §2: the demo agrees with its own
      // schedule): the first annuity due on or after a day drawn from 60 days ago to 400 days ahead, so
      // that due dates spread over limit passed, every reminder window and far.
      const drawn = parseIsoDate(addDays(options.today, Math.floor(-60 + random() * 460)))!;
      let due: string | null = null;
      let quantieme: number | null = null;
      let cost: string | null = null;
      const schedule = computeSchedule({ office, origin, filing: parseIsoDate(filing)! }, today);
      const annuities = schedule.ok ? schedule.value.annuities : [];
      const annuity = annuities.find((a) => a.due >= drawn) ?? annuities.at(-1);
      if (annuity) {
        due = formatIsoDate(annuity.due);
        quantieme = annuity.number;
        const rate = annuity.feeMinor === null ? null : rateOn(DEMO_RATES, annuity.currency, due);
        if (rate !== null) cost = ((annuity.feeMinor! / 100) * rate).toFixed(2);
      }
      // The case of this row: status, lock, missing information.
      const r = random();
      let instruction: number | null = null;
      let status = 'unprocessed';
      let exported: string | null = null;
      const dates: Record<string, string | null> = { acquit: null, office: null, reply: null, client: null };
      if (r < 0.15) {
        instruction = 1 + Math.floor(random() * 4);
        status = 'processed';
      } else if (r < 0.23) {
        instruction = 1 + Math.floor(random() * 4);
        status = 'validated';
      } else if (r < 0.25) {
        instruction = 1;
        status = 'validated';
        exported = `${addDays(options.today, -3)}T08:00:00Z`;
      } else if (r < 0.26) dates.acquit = addDays(options.today, -10);
      else if (r < 0.27) dates.office = addDays(options.today, -9);
      else if (r < 0.28) dates.reply = addDays(options.today, -8);
      else if (r < 0.29) dates.client = addDays(options.today, -7);
      else if (r < 0.3) due = null;
      else if (r < 0.31) cost = null;
      else if (r < 0.32) quantieme = null;
      const ownCode = random() < 0.8;
      column('idagenda', 'text').values.push(`DEMO-${pad(n + 1, 6)}`);
      column('idbrevet', 'text').values.push(`BRV-${pad(Math.floor(n / 3) + 1, 6)}`);
      column('cabinet_id', 'uuid').values.push(cabinetRows[c]!.id);
      column('client_code', 'text').values.push(codes[c]![ownCode ? 0 : 1]);
      column('reference_client', 'text').values.push(`CLI-${pad(n % 9973, 4)}-${office}`);
      column('reference_cabinet', 'text').values.push(`NS-${pad(n + 1, 6)}`);
      column('numero_depot', 'text').values.push(r >= 0.32 && r < 0.33 ? null : `${office}${filing.slice(0, 4)}${pad(n % 1_000_000, 6)}`);
      column('numero_publication', 'text').values.push(random() < 0.85 ? `${office}${pad(1_000_000 + n, 7)}` : null);
      column('pays', 'text').values.push(office);
      column('origine', 'text').values.push(origin);
      column('date_depot', 'date').values.push(filing);
      column('date_expiration', 'date').values.push(addDays(filing, 7305));
      column('date_echeance', 'date').values.push(due);
      column('quantieme', 'integer').values.push(quantieme);
      column('cost', 'numeric').values.push(cost);
      column('titre_anglais', 'text').values.push(`Device and method for demo invention ${n + 1}`);
      column('titre_francais', 'text').values.push(`Dispositif et procédé pour l’invention de démonstration ${n + 1}`);
      column('donneur_ordre', 'text').values.push(`Donneur ${pad(c + 1, 2)}`);
      column('donneur_ordre_an', 'text').values.push(`Orderer ${pad(c + 1, 2)}`);
      column('instruction_id', 'integer').values.push(instruction);
      column('instruction_status', 'text').values.push(status);
      column('date_acquit', 'date').values.push(dates.acquit);
      column('date_paiement_office', 'date').values.push(dates.office);
      column('date_reponse_courrier', 'date').values.push(dates.reply);
      column('date_paiement_client', 'date').values.push(dates.client);
      column('exported_at', 'timestamptz').values.push(exported);
      // Checked like every other write (all agree: the values above are the engine's).
      const check = scheduleColumnsOf({ pays: office, origine: origin, dateDepot: filing, quantieme, dateEcheance: due });
      column('schedule_code', 'text').values.push(check.scheduleCode);
      column('schedule_quantieme', 'integer').values.push(check.scheduleQuantieme);
      column('schedule_echeance', 'date').values.push(check.scheduleEcheance);
      column('schedule_checked', 'boolean').values.push(check.scheduleChecked);
    }
    const list = Object.values(columns);
    const names = sql.raw(list.map((c) => `"${c.name}"`).join(', '));
    const result = await db.execute(sql`
      insert into patent_records (${names})
      select * from unnest(${sql.join(
        list.map((c) => sql`${sql.param(c.values)}::${sql.raw(c.type)}[]`),
        sql`, `,
      )}) as u(${names})
      on conflict (idagenda) do nothing
      returning 1`);
    written += rowsOf(result).length;
  }
  // Records no checking path wrote (from before the check, or inserted by hand) are checked now (decision 147).
  await recheckSchedules(db);
  return { cabinets: cabinetRows.length, agents, patents: written };
}
