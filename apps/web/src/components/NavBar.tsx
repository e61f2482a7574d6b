import { ActionIcon, Burger, Button, Collapse, Divider, Group, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconLogin, IconLogout, IconMail, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, type FocusEvent, type KeyboardEvent } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { logout, sessionQuery } from '../lib/auth.ts';
import { LOGGED_OUT, menusFor, showsUserList } from '../lib/access.ts';
import { LanguageSwitcher } from './LanguageSwitcher.tsx';
import { Logo } from './Logo.tsx';
import classes from './NavBar.module.css';

/** Width 640 px or less counts as mobile (spec §2, shared frame). */
const MOBILE_QUERY = '(max-width: 40em)';

/** The desktop dropdowns (Menu, Popover, floating-ui) are their own chunk: only a logged-in user has menus. */
const DesktopMenu = lazy(() => import('./DesktopMenu.tsx'));

export function NavBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  // Auth initialisation on mount of the navigation bar.
  const { data: session = { ...LOGGED_OUT, user: null } } = useQuery(sessionQuery);
  const isMobile = useMediaQuery(MOBILE_QUERY, false, { getInitialValueInEffect: false });
  const [opened, { toggle, close }] = useDisclosure(false);
  const menus = menusFor(session);
  const userList = showsUserList(session);

  const burgerRef = useRef<HTMLButtonElement>(null);
  useEffect(() => close(), [location.pathname, close]);
  useEffect(() => {
    if (!isMobile) close();
  }, [isMobile, close]);

  // The open mobile menu closes on Escape (focus back on the burger) and when the focus leaves it and the burger.
  const onMenuKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !opened) return;
    e.stopPropagation();
    close();
    burgerRef.current?.focus();
  };
  const onMenuBlur = (e: FocusEvent<HTMLElement>) => {
    const next = e.relatedTarget;
    if (!opened || !(next instanceof Node)) return;
    if (e.currentTarget.contains(next)) return;
    close();
  };

  const logoutMutation = useMutation({
    mutationFn: () => logout(queryClient),
    onSettled: () => navigate('/login'),
  });

  const compactAuth = session.isAuthenticated ? (
    <ActionIcon variant="light" size={36} aria-label={t('nav.logout')} onClick={() => logoutMutation.mutate()} loading={logoutMutation.isPending}>
      <IconLogout size={18} aria-hidden="true" />
    </ActionIcon>
  ) : (
    <ActionIcon component={Link} to="/login" size={36} aria-label={t('nav.login')}>
      <IconLogin size={18} aria-hidden="true" />
    </ActionIcon>
  );

  const authButton = session.isAuthenticated ? (
    <Button
      variant="light"
      leftSection={<IconLogout size={16} aria-hidden="true" />}
      onClick={() => logoutMutation.mutate()}
      loading={logoutMutation.isPending}
      data-testid="logout-button"
    >
      {t('nav.logout')}
    </Button>
  ) : (
    <Button component={Link} to="/login" leftSection={<IconLogin size={16} aria-hidden="true" />} data-testid="login-button">
      {t('nav.login')}
    </Button>
  );

  return (
    <header
      className={classes.header}
      data-phone={isMobile || undefined}
      onKeyDown={onMenuKeyDown}
      onBlur={isMobile ? onMenuBlur : undefined}
    >
      <nav className={classes.inner} aria-label={t('nav.mainAria')} data-has-links={(!isMobile && menus.length > 0) || undefined}>
        <Logo compactOnTablet />
        {!isMobile && (
          <Group gap={4} className={classes.links} wrap="wrap">
            <Suspense fallback={null}>
              {menus.map((m) => (
                <DesktopMenu key={m.id} menu={m} />
              ))}
            </Suspense>
            {userList && (
              <NavLink to="/admin/user" className={classes.link} data-testid="nav-user-list">
                {t('nav.userList')}
              </NavLink>
            )}
            <NavLink to="/contact" className={classes.link}>
              {t('nav.contact')}
            </NavLink>
          </Group>
        )}
        <Group gap="sm" wrap="nowrap" className={classes.right}>
          <LanguageSwitcher />
          {!isMobile && (
            <>
              <div className={classes.wideOnly}>{authButton}</div>
              <div className={classes.tabletOnly}>{compactAuth}</div>
            </>
          )}
          {isMobile && (
            <Burger
              ref={burgerRef}
              opened={opened}
              onClick={toggle}
              aria-label={opened ? t('nav.closeMenu') : t('nav.openMenu')}
              aria-expanded={opened}
              aria-controls="mobile-menu"
              size="sm"
            />
          )}
        </Group>
      </nav>
      {isMobile && (
        <Collapse expanded={opened} id="mobile-menu" className={classes.collapse}>
          <Stack gap={2} className={classes.mobile}>
            {menus.map((m) => (
              <div key={m.id}>
                <Text size="xs" tt="uppercase" fw={700} c="dimmed" px="sm" pt="sm" pb={4}>
                  {t(m.labelKey)}
                </Text>
                {m.items.map((item) => (
                  <NavLink key={item.to} to={item.to} className={classes.mobileLink}>
                    {t(item.labelKey)}
                  </NavLink>
                ))}
              </div>
            ))}
            {menus.length > 0 && <Divider my={6} />}
            {userList && (
              <NavLink to="/admin/user" className={classes.mobileLink}>
                <Group gap={8}>
                  <IconUsers size={16} aria-hidden="true" />
                  {t('nav.userList')}
                </Group>
              </NavLink>
            )}
            <NavLink to="/contact" className={classes.mobileLink}>
              <Group gap={8}>
                <IconMail size={16} aria-hidden="true" />
                {t('nav.contact')}
              </Group>
            </NavLink>
            <div className={classes.mobileAuth}>{authButton}</div>
          </Stack>
        </Collapse>
      )}
    </header>
  );
}
