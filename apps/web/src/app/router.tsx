import { createBrowserRouter, redirect, type RouteObject, type LoaderFunctionArgs } from 'react-router-dom';
import type { ReactElement } from 'react';
import { guard } from '../lib/auth.ts';
import type { Access } from '../lib/access.ts';
import { queryClient } from './providers.tsx';
import { AppFrame } from './AppFrame.tsx';
import { Loader } from '../components/Loader.tsx';
import { HomePage } from '../features/home/HomePage.tsx';
import { LoginPage } from '../features/auth/LoginPage.tsx';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.tsx';
import { ContactPage } from '../features/contact/ContactPage.tsx';
import { LegalPage } from '../features/legal/LegalPage.tsx';
import { AddUserPage } from '../features/users/AddUserPage.tsx';
import { UserListPage } from '../features/users/UserListPage.tsx';
import { ComingSoonPage } from '../features/placeholders/ComingSoonPage.tsx';
import { UploadPage as LedesUploadPage } from '../features/ledes/UploadPage.tsx';
import { HistoryPage as LedesHistoryPage } from '../features/ledes/HistoryPage.tsx';
import { AdminHistoryPage as LedesAdminHistoryPage } from '../features/ledes/AdminHistoryPage.tsx';
import { ResultPage as LedesResultPage } from '../features/ledes/ResultPage.tsx';

interface PortalRoute {
  path: string;
  access: Access;
  element: ReactElement;
  loader?: (args: LoaderFunctionArgs) => Promise<null>;
}

/** Routes of later issues: a translated placeholder inside the frame, guarded as the route table says. */
const comingSoon: [string, Access, string][] = [
  ['/annuities/research', 'connected', 'annuitiesResearch'],
  ['/annuites/verify', 'connected', 'annuitiesVerify'],
  ['/annuities/list-files', 'connected', 'annuitiesListFiles'],
  ['/annuities/upload/receipt', 'connected', 'receiptUpload'],
  ['/annuities/list-receipt', 'connected', 'receiptList'],
  ['/patent-annuities', 'connected', 'patentAnnuities'],
  ['/add/patents', 'connected', 'addPatent'],
  // No guard in the original; login is now required (security fix), role checks stay server-side.
  ['/annuites/patent', 'connected', 'patentsMissingInfo'],
  ['/annuites/patent/instruction', 'connected', 'patentsToValidate'],
];

const resetLoader = async (args: LoaderFunctionArgs): Promise<null> => {
  const url = new URL(args.request.url);
  if (!url.searchParams.get('id') || !url.searchParams.get('token')) throw redirect('/login');
  return guard(queryClient, 'open')(args);
};

const portalRoutes: PortalRoute[] = [
  { path: '/', access: 'open', element: <HomePage /> },
  { path: '/login', access: 'guest', element: <LoginPage /> },
  { path: '/forgot_password', access: 'open', element: <ForgotPasswordPage /> },
  { path: '/password_reset', access: 'open', element: <ResetPasswordPage />, loader: resetLoader },
  { path: '/contact', access: 'open', element: <ContactPage /> },
  { path: '/privacy-policy', access: 'open', element: <LegalPage kind="privacy" /> },
  { path: '/terms-condition', access: 'open', element: <LegalPage kind="terms" /> },
  { path: '/add/user', access: 'admin', element: <AddUserPage /> },
  { path: '/admin/user', access: 'admin', element: <UserListPage /> },
  { path: '/ledes/upload', access: 'connected', element: <LedesUploadPage /> },
  { path: '/ledes/history', access: 'connected', element: <LedesHistoryPage /> },
  { path: '/ledes/history/admin', access: 'admin', element: <LedesAdminHistoryPage /> },
  { path: '/result-ledes', access: 'connected', element: <LedesResultPage /> },
  ...comingSoon.map(([path, access, key]): PortalRoute => ({ path, access, element: <ComingSoonPage screen={key} /> })),
];

const routes: RouteObject[] = [
  {
    element: <AppFrame />,
    HydrateFallback: () => <Loader loading />,
    children: [
      ...portalRoutes.map(
        (r): RouteObject => ({ path: r.path, element: r.element, loader: r.loader ?? guard(queryClient, r.access) }),
      ),
      // Any other path (including /unauthorized) ends at home.
      { path: '*', loader: () => redirect('/') },
    ],
  },
];

export const router = createBrowserRouter(routes);
