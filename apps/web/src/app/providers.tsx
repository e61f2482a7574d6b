import { lazy, Suspense, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api.ts';
import { I18nextProvider } from 'react-i18next';
import i18n from '../lib/i18n.ts';
import { cssVariablesResolver, theme, TOAST_MS } from './theme.ts';

/**
 * The toasts' container is fetched after the first render (it is not needed to show a screen);
 * `notifications.show()` before it arrives is kept in Mantine's store and shown once it mounts.
 */
const Notifications = lazy(() => import('@mantine/notifications').then((m) => ({ default: m.Notifications })));

/** A call refused for a missing session means the session ended: refresh it so the frame and the guard follow. */
function onApiError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401 && error.code === 'unauthorized') {
    queryClient.invalidateQueries({ queryKey: ['session'] });
  }
}

export const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: 0 },
  },
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
          <Suspense fallback={null}>
            <Notifications position="top-right" autoClose={TOAST_MS} limit={4} zIndex={4000} />
          </Suspense>
          {children}
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
