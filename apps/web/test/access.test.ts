import { describe, expect, it } from 'vitest';
import { decideAccess, loginPathFor, menusFor, sanitizeRedirect, showsUserList, type SessionSnapshot } from '../src/lib/access.ts';

const anon: SessionSnapshot = { isAuthenticated: false, is_admin: false, roles: [] };
const user = (roles: string[], is_admin = false): SessionSnapshot => ({ isAuthenticated: true, is_admin, roles });

describe('decideAccess', () => {
  it('lets anyone open open routes', () => {
    expect(decideAccess('open', anon, '/contact')).toEqual({ kind: 'allow' });
    expect(decideAccess('open', user(['admin'], true), '/')).toEqual({ kind: 'allow' });
  });
  it('sends an unauthenticated visitor of a connected route to /login with the wanted path', () => {
    expect(decideAccess('connected', anon, '/ledes/history?page=2')).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fledes%2Fhistory%3Fpage%3D2',
    });
  });
  it('sends an unauthenticated visitor of an admin route to /login too', () => {
    expect(decideAccess('admin', anon, '/admin/user')).toEqual({ kind: 'redirect', to: loginPathFor('/admin/user') });
  });
  it('sends a logged-in user without the admin role to /unauthorized', () => {
    expect(decideAccess('admin', user(['user_agent_ledes']), '/add/user')).toEqual({ kind: 'redirect', to: '/unauthorized' });
    expect(decideAccess('admin', user(['admin_test']), '/ledes/history/admin')).toEqual({ kind: 'redirect', to: '/unauthorized' });
  });
  it('accepts the admin flag or the admin role', () => {
    expect(decideAccess('admin', user([], true), '/add/user')).toEqual({ kind: 'allow' });
    expect(decideAccess('admin', user(['admin']), '/add/user')).toEqual({ kind: 'allow' });
  });
  it('lets any logged-in user reach connected routes', () => {
    expect(decideAccess('connected', user([]), '/annuites/patent')).toEqual({ kind: 'allow' });
  });
  it('keeps the LEDES screens for the roles with the LEDES menu (admin, user_agent_ledes)', () => {
    for (const roles of [['user_annuites'], ['user_agent_annuites'], ['admin_test'], []]) {
      expect(decideAccess('ledes', user(roles), '/ledes/upload'), roles.join()).toEqual({ kind: 'redirect', to: '/unauthorized' });
    }
    expect(decideAccess('ledes', user(['user_agent_ledes']), '/ledes/upload')).toEqual({ kind: 'allow' });
    expect(decideAccess('ledes', user([], true), '/result-ledes?runs=x')).toEqual({ kind: 'allow' });
    expect(decideAccess('ledes', anon, '/ledes/history')).toEqual({ kind: 'redirect', to: loginPathFor('/ledes/history') });
  });
  it('sends a logged-in user away from /login', () => {
    expect(decideAccess('guest', user(['user_annuites']), '/login')).toEqual({ kind: 'redirect', to: '/' });
    expect(decideAccess('guest', anon, '/login')).toEqual({ kind: 'allow' });
  });
});

describe('sanitizeRedirect', () => {
  it.each([
    ['/ledes/history', '/ledes/history'],
    ['/admin/user?x=1#top', '/admin/user?x=1#top'],
    [null, '/'],
    ['', '/'],
    ['//evil.example/path', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['ledes/upload', '/'],
    ['/\tevil', '/'],
    ['/login?redirect=/x', '/'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
  ])('%s → %s', (input, expected) => {
    expect(sanitizeRedirect(input)).toBe(expected);
  });
});

describe('menusFor', () => {
  const ids = (s: SessionSnapshot) => menusFor(s).map((m) => m.id);
  const items = (s: SessionSnapshot, id: string) => menusFor(s).find((m) => m.id === id)?.items.map((i) => i.to);

  it('shows nothing to visitors', () => {
    expect(menusFor(anon)).toEqual([]);
    expect(showsUserList(anon)).toBe(false);
  });
  it('gives the ledes menu to ledes agents without admin history', () => {
    const s = user(['user_agent_ledes']);
    expect(ids(s)).toEqual(['ledes']);
    expect(items(s, 'ledes')).toEqual(['/ledes/upload', '/ledes/history']);
    expect(showsUserList(s)).toBe(false);
  });
  it('gives the annuities menu to user_annuites', () => {
    const s = user(['user_annuites']);
    expect(ids(s)).toEqual(['annuities']);
    expect(items(s, 'annuities')).toEqual(['/annuities/research', '/annuities/list-files']);
  });
  it('gives patents only to user_agent_annuites', () => {
    expect(items(user(['user_agent_annuites']), 'patentAnnuities')).toEqual(['/patent-annuities', '/annuities/list-receipt', '/annuites/forecast']);
  });
  it('gives patents and patents to validate to admin_test', () => {
    const s = user(['admin_test']);
    expect(ids(s)).toEqual(['patentAnnuities']);
    expect(items(s, 'patentAnnuities')).toEqual(['/patent-annuities', '/annuities/list-receipt', '/annuites/forecast', '/annuites/patent/instruction']);
  });
  it('gives everything to the admin', () => {
    const s = user(['admin'], true);
    expect(ids(s)).toEqual(['ledes', 'annuities', 'patentAnnuities']);
    expect(items(s, 'ledes')).toEqual(['/ledes/upload', '/ledes/history', '/ledes/history/admin', '/ledes/guidelines', '/ledes/analytics']);
    expect(items(s, 'patentAnnuities')).toEqual(['/patent-annuities', '/annuities/list-receipt', '/annuites/forecast', '/annuities/list-receipt/unlinked', '/annuites/patent', '/annuites/patent/instruction', '/annuites/patent/portfolio', '/annuites/patent/submissions', '/annuites/costs', '/annuites/calls', '/annuites/register']);
    expect(showsUserList(s)).toBe(true);
  });
  it('merges menus of several roles', () => {
    expect(ids(user(['user_agent_ledes', 'user_annuites']))).toEqual(['ledes', 'annuities']);
  });
});
