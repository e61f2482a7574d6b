import { useRealtime } from '../../lib/realtime.ts';

/** Live updates of the patent lists (the `patents:changed` event, once the API sends it); polling while interrupted. */
export function usePatentsLive(): { interrupted: boolean } {
  const status = useRealtime();
  return { interrupted: status === 'interrupted' };
}
