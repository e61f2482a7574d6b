import type { RoleSlug } from '@portal/contracts';

/**
 * open: anyone; guest: only when logged out (a logged-in user goes home);
 * connected: login required; admin: admin role required; ledes: the LEDES screens, for the roles
 * that see the LEDES menu (admin, user_agent_ledes); patents: the portfolio, for the roles that see
 * the patent menu (user_agent_annuites, admin_test, admin); patentStaff: patents to validate (admin_test, admin).
 */
export type Access = 'open' | 'guest' | 'connected' | 'admin' | 'ledes' | 'patents' | 'patentStaff';

export interface SessionSnapshot {
  isAuthenticated: boolean;
  is_admin: boolean;
  roles: readonly string[];
}

export const LOGGED_OUT: SessionSnapshot = { isAuthenticated: false, is_admin: false, roles: [] };

export type GuardDecision = { kind: 'allow' } | { kind: 'redirect'; to: string };

const UNAUTHORIZED_PATH = '/unauthorized';

export function isAdmin(session: SessionSnapshot): boolean {
  return session.isAuthenticated && (session.is_admin || session.roles.includes('admin'));
}

/** The guard's decision for one navigation; `wanted` is the requested path with its query string. */
export function decideAccess(access: Access, session: SessionSnapshot, wanted: string): GuardDecision {
  switch (access) {
    case 'open':
      return { kind: 'allow' };
    case 'guest':
      return session.isAuthenticated ? { kind: 'redirect', to: '/' } : { kind: 'allow' };
    case 'connected':
    case 'admin':
    case 'ledes':
    case 'patents':
    case 'patentStaff':
      if (!session.isAuthenticated) return { kind: 'redirect', to: loginPathFor(wanted) };
      if (access === 'admin' && !isAdmin(session)) return { kind: 'redirect', to: UNAUTHORIZED_PATH };
      if (access === 'ledes' && !canUseLedes(session)) return { kind: 'redirect', to: UNAUTHORIZED_PATH };
      if (access === 'patents' && !canUsePatents(session)) return { kind: 'redirect', to: UNAUTHORIZED_PATH };
      if (access === 'patentStaff' && !canValidatePatents(session)) return { kind: 'redirect', to: UNAUTHORIZED_PATH };
      return { kind: 'allow' };
  }
}

/** The LEDES screens and menu: admins and LEDES agents (spec, "Navigation menus by role"). */
export function canUseLedes(session: SessionSnapshot): boolean {
  return session.isAuthenticated && (isAdmin(session) || session.roles.includes('user_agent_ledes'));
}

/** The patent portfolio and its menu: annuities agents, admin_test and admins (spec §6). */
export function canUsePatents(session: SessionSnapshot): boolean {
  return session.isAuthenticated && (isAdmin(session) || session.roles.includes('admin_test') || session.roles.includes('user_agent_annuites'));
}

/** Patents to validate: admin_test and admins (spec §6). */
export function canValidatePatents(session: SessionSnapshot): boolean {
  return session.isAuthenticated && (isAdmin(session) || session.roles.includes('admin_test'));
}

export function loginPathFor(wanted: string): string {
  return `/login?redirect=${encodeURIComponent(wanted)}`;
}

/**
 * Where to go after a login: the redirect value when it is a same-site absolute path
 * ('/x', never '//x', '/\\x' or a scheme), otherwise home. Never back to /login.
 */
export function sanitizeRedirect(value: string | null | undefined): string {
  if (!value || typeof value !== 'string') return '/';
  if (/[\u0000-\u001f\u007f]/.test(value)) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  let url: URL;
  try {
    url = new URL(value, 'http://portal.invalid');
  } catch {
    return '/';
  }
  if (url.origin !== 'http://portal.invalid') return '/';
  if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

interface MenuItem {
  /** i18n key in the common namespace. */
  labelKey: string;
  to: string;
}
export interface MenuGroup {
  id: 'ledes' | 'annuities' | 'patentAnnuities';
  labelKey: string;
  items: MenuItem[];
}

function has(session: SessionSnapshot, role: RoleSlug): boolean {
  return session.roles.includes(role);
}

/** Dropdown menus shown in the navigation bar, following "Navigation menus by role". */
export function menusFor(session: SessionSnapshot): MenuGroup[] {
  if (!session.isAuthenticated) return [];
  const admin = isAdmin(session);
  const menus: MenuGroup[] = [];

  if (canUseLedes(session)) {
    const items: MenuItem[] = [
      { labelKey: 'nav.ledesUpload', to: '/ledes/upload' },
      { labelKey: 'nav.ledesHistory', to: '/ledes/history' },
    ];
    if (admin) items.push({ labelKey: 'nav.ledesAdminHistory', to: '/ledes/history/admin' }, { labelKey: 'nav.ledesGuidelines', to: '/ledes/guidelines' });
    if (admin) items.push({ labelKey: 'nav.ledesAnalytics', to: '/ledes/analytics' });
    menus.push({ id: 'ledes', labelKey: 'nav.ledes', items });
  }

  if (admin || has(session, 'user_annuites')) {
    menus.push({
      id: 'annuities',
      labelKey: 'nav.annuities',
      items: [
        { labelKey: 'nav.annuitiesResearch', to: '/annuities/research' },
        { labelKey: 'nav.annuitiesListFiles', to: '/annuities/list-files' },
      ],
    });
  }

  const adminTest = has(session, 'admin_test');
  if (admin || adminTest || has(session, 'user_agent_annuites')) {
    const items: MenuItem[] = [
      { labelKey: 'nav.patents', to: '/patent-annuities' },
      { labelKey: 'nav.receipts', to: '/annuities/list-receipt' },
      { labelKey: 'nav.forecast', to: '/annuites/forecast' },
    ];
    if (admin) items.push({ labelKey: 'nav.receiptsUnlinked', to: '/annuities/list-receipt/unlinked' });
    if (admin) items.push({ labelKey: 'nav.patentsMissingInfo', to: '/annuites/patent' });
    if (admin || adminTest) items.push({ labelKey: 'nav.patentsToValidate', to: '/annuites/patent/instruction' });
    // Not in the spec's menus (issue 11): the back office's imports, the batches sent back, the reminders.
    if (admin) items.push({ labelKey: 'nav.patentsPortfolio', to: '/annuites/patent/portfolio' });
    if (admin) items.push({ labelKey: 'nav.patentSubmissions', to: '/annuites/patent/submissions' });
    if (admin) items.push({ labelKey: 'nav.costTables', to: '/annuites/costs' });
    if (admin) items.push({ labelKey: 'nav.renewalCalls', to: '/annuites/calls' });
    if (admin) items.push({ labelKey: 'nav.registerDiscrepancies', to: '/annuites/register' });
    menus.push({ id: 'patentAnnuities', labelKey: 'nav.patentAnnuities', items });
  }
  return menus;
}

/** The user-list link is for a logged-in admin only. */
export function showsUserList(session: SessionSnapshot): boolean {
  return isAdmin(session);
}
