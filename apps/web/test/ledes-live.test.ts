import { focusManager, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LedesRunDto } from '@portal/contracts';
import { queryKeys } from '../src/lib/queryKeys.ts';

const ledesKeys = queryKeys.ledes;
import { RECONCILE_INTERVAL_MS, reconcileRunsInProgress } from '../src/features/ledes/live.ts';

const run = (id: string, state: LedesRunDto['state']) => ({ run: { _id: id, state }, result: null });

function cacheWithRuns(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(ledesKeys.run('a'), run('a', 'in_progress'));
  client.setQueryData(ledesKeys.run('b'), run('b', 'Done'));
  client.setQueryData(ledesKeys.history({ page: 1, limit: 500 }), { rows: [{ _id: 'a', state: 'in_progress' }], meta: {} });
  client.setQueryData(ledesKeys.adminHistory({ owner: 'x', search: '', page: 1, limit: 600, sort: 'date', order: 'desc' }), { rows: [{ _id: 'b', state: 'Error' }], meta: {} });
  return client;
}

const invalidated = (client: QueryClient) =>
  client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => q.queryKey);

describe('stale screens: runs shown in progress are reconciled without a socket event', () => {
  afterEach(() => {
    vi.useRealTimers();
    focusManager.setFocused(undefined);
  });

  it('refetches the screens showing a run in progress at a slow interval, and only those', () => {
    vi.useFakeTimers();
    const client = cacheWithRuns();
    const stop = reconcileRunsInProgress(client);
    vi.advanceTimersByTime(RECONCILE_INTERVAL_MS - 1);
    expect(invalidated(client)).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(invalidated(client)).toEqual([ledesKeys.run('a'), ledesKeys.history({ page: 1, limit: 500 })]);
    stop();
  });

  it('refetches them when the window gets the focus back', () => {
    const client = cacheWithRuns();
    const stop = reconcileRunsInProgress(client);
    focusManager.setFocused(false);
    expect(invalidated(client)).toEqual([]);
    focusManager.setFocused(true);
    expect(invalidated(client)).toEqual([ledesKeys.run('a'), ledesKeys.history({ page: 1, limit: 500 })]);
    stop();
  });

  it('refetches a history showing a Done run whose treated file is not recorded yet, until it is', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    const pending = ledesKeys.history({ page: 1, limit: 500 });
    const recorded = ledesKeys.history({ page: 2, limit: 500 });
    client.setQueryData(pending, { rows: [{ _id: 'c', state: 'Done', path_treated: null }], meta: {} });
    client.setQueryData(recorded, { rows: [{ _id: 'd', state: 'Done', path_treated: 'ledes/d-treated.xlsx' }], meta: {} });
    const stop = reconcileRunsInProgress(client);
    vi.advanceTimersByTime(RECONCILE_INTERVAL_MS);
    expect(invalidated(client)).toEqual([pending]);
    stop();
  });

  it('costs nothing once every run shown is finished', () => {
    vi.useFakeTimers();
    const client = new QueryClient();
    client.setQueryData(ledesKeys.run('b'), run('b', 'Done'));
    const stop = reconcileRunsInProgress(client);
    vi.advanceTimersByTime(RECONCILE_INTERVAL_MS * 3);
    expect(invalidated(client)).toEqual([]);
    stop();
  });
});
