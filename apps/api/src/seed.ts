import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { ROLE_SLUGS, type RoleSlug } from '@portal/contracts';
import { DEFAULT_OFFICES } from '@portal/ledes';
import { cabinets, ledesOffices, ledesProfiles, roles, userCabinets, userRoles, users, type Database } from '@portal/db';
import { hashPassword } from './security/passwords.ts';

const SEED_CABINETS = ['Cabinet Lyon', 'Cabinet Munich', 'Cabinet Paris'];

export interface SeededAdmin {
  email: string;
  /** Set only when this start created the admin with a generated password: shown once. */
  generatedPassword?: string;
  created: boolean;
}

/** Roles, a few cabinets and the first admin; idempotent, safe to run at every start. */
export async function seedBaseData(db: Database, admin: { email: string; password: string | undefined }): Promise<SeededAdmin> {
  await db.insert(roles).values(ROLE_SLUGS.map((slug) => ({ slug }))).onConflictDoNothing();
  await db.insert(cabinets).values(SEED_CABINETS.map((name) => ({ name }))).onConflictDoNothing();
  // LEDES offices and their profiles; existing rows are kept, so a tuned profile survives restarts.
  await db
    .insert(ledesOffices)
    .values(DEFAULT_OFFICES.map((o, position) => ({ code: o.code, labelEn: o.label_en, labelFr: o.label_fr, position })))
    .onConflictDoNothing();
  await db
    .insert(ledesProfiles)
    .values(DEFAULT_OFFICES.flatMap((o) => o.profiles.map((p) => ({ office: o.code, type: p.type, profile: p as unknown as Record<string, unknown> }))))
    .onConflictDoNothing();

  const [adminRole] = await db.select().from(roles).where(eq(roles.slug, 'admin'));
  const existing = await db.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.roleId, adminRole!.id)).limit(1);
  if (existing.length > 0) return { email: admin.email, created: false };

  const generatedPassword = admin.password ? undefined : randomBytes(12).toString('base64url');
  const email = admin.email.toLowerCase();
  await db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ companyAgent: 'Administrator', email, passwordHash: await hashPassword(admin.password ?? generatedPassword!), langue: 'en' })
      .onConflictDoUpdate({ target: users.email, set: { updatedAt: new Date() } })
      .returning({ id: users.id });
    await tx.insert(userRoles).values({ userId: user!.id, roleId: adminRole!.id }).onConflictDoNothing();
  });
  return { email, generatedPassword, created: true };
}

export const DEMO_PASSWORD = 'demo-password-2026';

/** One demo user per role, for trying the portal (npm run seed:demo); never run in production. */
export async function seedDemoUsers(db: Database): Promise<Array<{ email: string; role: RoleSlug }>> {
  const roleRows = await db.select().from(roles).where(inArray(roles.slug, [...ROLE_SLUGS]));
  const [firstCabinet] = await db.select().from(cabinets).limit(1);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const created: Array<{ email: string; role: RoleSlug }> = [];
  for (const role of roleRows) {
    const slug = role.slug as RoleSlug;
    const email = `demo.${slug.replaceAll('_', '-')}@portal.local`;
    await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          companyAgent: `Demo ${slug}`,
          email,
          passwordHash,
          langue: 'fr',
          idClient: slug === 'user_agent_ledes' ? ['DEMO-CLIENT-1', 'DEMO-CLIENT-2'] : [],
          code: slug === 'user_agent_annuites' ? ['DEMO01'] : [],
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (!user) return;
      await tx.insert(userRoles).values({ userId: user.id, roleId: role.id });
      if (slug === 'user_agent_annuites' && firstCabinet) {
        await tx.insert(userCabinets).values({ userId: user.id, cabinetId: firstCabinet.id });
      }
      created.push({ email, role: slug });
    });
  }
  return created;
}
