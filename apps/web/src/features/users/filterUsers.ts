/** Search by company/agent name or e-mail, case- and accent-insensitive. */
function normalize(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().trim();
}

export function filterUsers<T extends { company_agent: string; email: string }>(users: readonly T[], query: string): T[] {
  const q = normalize(query);
  if (!q) return [...users];
  return users.filter((u) => normalize(u.company_agent).includes(q) || normalize(u.email).includes(q));
}
