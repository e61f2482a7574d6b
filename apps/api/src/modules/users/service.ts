import { and, arrayContains, eq, inArray } from 'drizzle-orm';
import type { AgentAddress, NewAgentAddress, NewUser, PublicUser, RoleSlug } from '@portal/contracts';
import { agentAddresses, cabinets, isUniqueViolation, roles, userCabinets, userRoles, users } from '@portal/db';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../domain/errors.ts';
import { hashPassword } from '../../security/passwords.ts';
import { loadPublicUser } from './presenter.ts';

/**
 * Creates a user with the parts their role needs. Role rules are checked here, not only in the form:
 * an annuities agent needs a cabinet, a LEDES agent a client id.
 */
export async function createUser(ctx: AppContext, input: NewUser): Promise<PublicUser> {
  const roleRows = await ctx.db.select().from(roles).where(inArray(roles.id, input.roles));
  if (roleRows.length !== new Set(input.roles).size) throw new AppError('role_required', { fields: { roles: 'role_required' } });
  const slugs = roleRows.map((r) => r.slug as RoleSlug);
  if (slugs.includes('user_agent_annuites') && input.cabinets.length === 0) {
    throw new AppError('cabinet_required', { fields: { cabinets: 'cabinet_required' } });
  }
  if (slugs.includes('user_agent_ledes') && input.id_client.length === 0) {
    throw new AppError('validation_failed', { fields: { id_client: 'validation_failed' } });
  }
  if (input.cabinets.length > 0) {
    const found = await ctx.db.select({ id: cabinets.id }).from(cabinets).where(inArray(cabinets.id, input.cabinets));
    if (found.length !== new Set(input.cabinets).size) throw new AppError('validation_failed', { fields: { cabinets: 'validation_failed' } });
  }
  const passwordHash = await hashPassword(input.password);
  try {
    const userId = await ctx.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          companyAgent: input.company_agent,
          email: input.email,
          passwordHash,
          langue: input.langue,
          idClient: [...new Set(input.id_client)],
          code: [...new Set(input.code)],
        })
        .returning({ id: users.id });
      await tx.insert(userRoles).values(roleRows.map((r) => ({ userId: user!.id, roleId: r.id })));
      if (input.cabinets.length > 0) {
        await tx.insert(userCabinets).values([...new Set(input.cabinets)].map((cabinetId) => ({ userId: user!.id, cabinetId })));
      }
      return user!.id;
    });
    return (await loadPublicUser(ctx.db, userId))!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('register_failed');
    throw error;
  }
}

export async function createAgentAddress(ctx: AppContext, createdBy: string, input: NewAgentAddress): Promise<AgentAddress> {
  try {
    const [row] = await ctx.db
      .insert(agentAddresses)
      .values({
        idClient: input.id_client,
        destinataireLibelle: input.destinataire_libelle,
        ligne01Libelle: input.ligne01_libelle,
        ligne02Libelle: input.ligne02_libelle ?? null,
        villeLibelle: input.ville_libelle,
        paysCode: input.pays_code,
        codePostal: input.code_postal,
        devise: input.devise,
        createdBy,
      })
      .returning();
    return presentAddress(row!);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('register_failed', { fields: { id_client: 'register_failed' } });
    throw error;
  }
}

function presentAddress(row: typeof agentAddresses.$inferSelect): AgentAddress {
  return {
    _id: row.id,
    id_client: row.idClient,
    destinataire_libelle: row.destinataireLibelle,
    ligne01_libelle: row.ligne01Libelle,
    ligne02_libelle: row.ligne02Libelle ?? undefined,
    ville_libelle: row.villeLibelle,
    pays_code: row.paysCode,
    code_postal: row.codePostal,
    devise: row.devise,
  };
}

/** The recipient name for a client id; a non-admin may only ask about their own client ids. */
export async function recipientName(ctx: AppContext, actor: { userId: string; isAdmin: boolean }, idClient: string): Promise<string> {
  if (!actor.isAdmin) {
    const [own] = await ctx.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, actor.userId), arrayContains(users.idClient, [idClient])));
    if (!own) throw new AppError('not_found');
  }
  const [address] = await ctx.db
    .select({ name: agentAddresses.destinataireLibelle })
    .from(agentAddresses)
    .where(eq(agentAddresses.idClient, idClient));
  if (!address) throw new AppError('not_found');
  return address.name;
}

export async function ledesAgents(ctx: AppContext) {
  return ctx.db
    .select({ _id: users.id, company_agent: users.companyAgent, email: users.email, id_client: users.idClient })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(roles.slug, 'user_agent_ledes'))
    .orderBy(users.companyAgent);
}
