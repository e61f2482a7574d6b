import { useEffect } from 'react';
import { focusManager, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query';
import type { LedesRunDto } from '@portal/contracts';
import { onRealtime, onRealtimeConnect, useRealtime, type RealtimeStatus } from '../../lib/realtime.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import type { HistoryPage, LedesRunDetail } from './api.ts';
import { mergeRun, patchHistoryRows, POLL_INTERVAL_MS, treatedPending } from './model.ts';

/** Applies one pushed run to the cache: its detail, and every history page listing it. */
function applyRunEvent(queryClient: QueryClient, dto: LedesRunDto): void {
  const key = queryKeys.ledes.run(dto._id);
  const before = queryClient.getQueryData<LedesRunDetail>(key);
  if (before) {
    const run = mergeRun(before.run, dto);
    queryClient.setQueryData<LedesRunDetail>(key, { ...before, run });
    // The findings come with the detail once Done: fetch them.
    if (run.state === 'Done' && !before.result) queryClient.invalidateQueries({ queryKey: key, exact: true });
  }

  let missing = false;
  for (const [queryKey, page] of queryClient.getQueriesData<HistoryPage>({ queryKey: queryKeys.ledes.histories() })) {
    if (!page) continue;
    const { rows, found } = patchHistoryRows(page.rows, dto);
    if (found) queryClient.setQueryData<HistoryPage>(queryKey, { ...page, rows });
    else missing = true;
  }
  // A new run (once), or a finished one whose treated file is now known: refresh the lists in the background.
  const newRun = missing && dto.state === 'in_progress' && !listedOnce.has(dto._id);
  if (newRun) listedOnce.add(dto._id);
  if (newRun || dto.state !== 'in_progress') queryClient.invalidateQueries({ queryKey: queryKeys.ledes.histories() });
}

/**
 * While a screen shows a run in progress, it is refetched this often even with the socket up: an
 * event dropped while Redis was down never reaches a socket that stayed connected.
 */
export const RECONCILE_INTERVAL_MS = 15_000;

/** A LEDES run detail or history page that shows a run still in progress. */
function showsRunInProgress(query: Query): boolean {
  const [scope, kind] = query.queryKey;
  if (scope !== 'ledes') return false;
  if (kind === 'run') return (query.state.data as LedesRunDetail | undefined)?.run.state === 'in_progress';
  // A Done run whose treated workbook is not recorded yet is still in progress for its download (decision 182).
  if (kind === 'history') return (query.state.data as HistoryPage | undefined)?.rows.some((row) => row.state === 'in_progress' || treatedPending(row)) ?? false;
  return false;
}

/**
 * Reconciles the screens showing runs in progress with the server: on window focus and every
 * RECONCILE_INTERVAL_MS. Finished screens are left alone, so this costs nothing once every run is
 * Done or in Error. Returns the stop function.
 */
export function reconcileRunsInProgress(queryClient: QueryClient, intervalMs = RECONCILE_INTERVAL_MS): () => void {
  const reconcile = () => {
    queryClient.invalidateQueries({ predicate: showsRunInProgress });
  };
  const offFocus = focusManager.subscribe((focused) => {
    if (focused) reconcile();
  });
  const timer = setInterval(reconcile, intervalMs);
  return () => {
    offFocus();
    clearInterval(timer);
  };
}

/** Runs whose first progress event already refreshed the lists (progress comes every 500 ms). */
const listedOnce = new Set<string>();

let subscribers = 0;
let unsubscribe: (() => void) | undefined;

function subscribe(queryClient: QueryClient): () => void {
  if (subscribers++ === 0) {
    const offRun = onRealtime('ledes:run', (dto) => applyRunEvent(queryClient, dto));
    // Anything missed while disconnected is caught up by refetching what is shown.
    const offConnect = onRealtimeConnect(
      () => {
        queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'ledes' && (q.queryKey[1] === 'run' || q.queryKey[1] === 'history') });
      },
    );
    const offReconcile = reconcileRunsInProgress(queryClient);
    unsubscribe = () => {
      offRun();
      offConnect();
      offReconcile();
    };
  }
  return () => {
    if (--subscribers === 0) {
      unsubscribe?.();
      unsubscribe = undefined;
    }
  };
}

export interface LedesLive {
  status: RealtimeStatus;
  /** Live updates are not flowing: screens refetch every few seconds. */
  polling: boolean;
  /** Show the "live updates interrupted" notice. */
  interrupted: boolean;
  /** refetchInterval for the queries of the screen. */
  interval: number | false;
}

/** Live LEDES updates for the screen: socket, cache patching, and the polling fallback. */
export function useLedesLive(): LedesLive {
  const queryClient = useQueryClient();
  const status = useRealtime();
  useEffect(() => subscribe(queryClient), [queryClient]);
  const polling = status === 'interrupted';
  return { status, polling, interrupted: polling, interval: polling ? POLL_INTERVAL_MS : false };
}
