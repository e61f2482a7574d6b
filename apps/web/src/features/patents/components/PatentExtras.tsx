/** The schedule and the audit trail of a patent, once the API serves them (issue 11, other branch). */
export function PatentSchedule(_props: { id: string }) {
  return null;
}
export function PatentHistory(_props: { id: string; labels: unknown }) {
  return null;
}
