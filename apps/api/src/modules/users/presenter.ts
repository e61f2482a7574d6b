import { asc, eq, inArray } from 'drizzle-orm';
import type { PublicUser, RoleSlug } from '@portal/contracts';
import { cabinets, roles, userCabinets, userMfa, userRoles, users, type Executor } from '@portal/db';

/**
 * The only way user rows leave the API: an explicit list of public fields, so a new column
 * (a hash, a token) can never leak by accident (AC-07).
 */
export async function loadPublicUsers(db: Executor, userIds?: string[]): Promise<PublicUser[]> {
  if (userIds && userIds.length === 0) return [];
  const base = db
    .select({
      id: users.id,
      companyAgent: users.companyAgent,
      email: users.email,
      langue: users.langue,
      langueChosen: users.langueChosen,
      mfaConfirmedAt: userMfa.confirmedAt,
      idClient: users.idClient,
      code: users.code,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(userMfa, eq(userMfa.userId, users.id));
  const related = (ids: string[]) =>
    Promise.all([
      db
        .select({ userId: userRoles.userId, id: roles.id, slug: roles.slug })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(inArray(userRoles.userId, ids)),
      db
        .select({ userId: userCabinets.userId, id: cabinets.id, name: cabinets.name })
        .from(userCabinets)
        .innerJoin(cabinets, eq(cabinets.id, userCabinets.cabinetId))
        .where(inArray(userCabinets.userId, ids)),
    ]);
  // Given the ids, their roles and offices are read at once with the users: one round trip to the database
  // fewer for every request that loads its user (on the embedded database, one wait fewer, decision 185).
  const [rows, [roleRows, cabinetRows]] = userIds
    ? await Promise.all([base.where(inArray(users.id, userIds)).orderBy(asc(users.companyAgent), asc(users.email)), related(userIds)])
    : await base.orderBy(asc(users.companyAgent), asc(users.email)).then(async (all) => [all, all.length === 0 ? [[], []] : await related(all.map((r) => r.id))] as const);
  return rows.map((row) => ({
    _id: row.id,
    company_agent: row.companyAgent,
    email: row.email,
    langue: row.langue,
    langue_chosen: row.langueChosen,
    mfa_enabled: row.mfaConfirmedAt !== null,
    id_client: row.idClient,
    code: row.code,
    created: row.createdAt.toISOString(),
    roles: roleRows.filter((r) => r.userId === row.id).map((r) => ({ _id: r.id, slug: r.slug as RoleSlug })),
    cabinets: cabinetRows.filter((c) => c.userId === row.id).map((c) => ({ _id: c.id, name: c.name })),
  }));
}

export async function loadPublicUser(db: Executor, userId: string): Promise<PublicUser | null> {
  const [user] = await loadPublicUsers(db, [userId]);
  return user ?? null;
}
