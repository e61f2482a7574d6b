import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { onRealtime, onRealtimeConnect, useRealtime } from '../../lib/realtime.ts';
import { queryKeys } from '../../lib/queryKeys.ts';

let subscribers = 0;
let unsubscribe: (() => void) | undefined;

/** `patents:changed` carries ids only: every patent list, detail, schedule and trail on screen is read again. */
function subscribe(queryClient: QueryClient): () => void {
  if (subscribers++ === 0) {
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.patents.all() }).catch(() => undefined);
    };
    const offChange = onRealtime('patents:changed', refresh);
    // Whatever changed while disconnected.
    const offConnect = onRealtimeConnect(refresh);
    unsubscribe = () => {
      offChange();
      offConnect();
    };
  }
  return () => {
    if (--subscribers === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  };
}

/** Live updates of the patent screens: changes by others (another agent, a validation, an import) appear; polling while interrupted. */
export function usePatentsLive(): { interrupted: boolean } {
  const queryClient = useQueryClient();
  const status = useRealtime();
  useEffect(() => subscribe(queryClient), [queryClient]);
  return { interrupted: status === 'interrupted' };
}
