import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCertificate, IconFileInvoice, IconMail, IconLogin } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../../lib/auth.ts';
import { LOGGED_OUT, menusFor } from '../../lib/access.ts';
import classes from './HomePage.module.css';
import { usePageTitle } from '../../lib/usePageTitle.ts';

/** Spec §9: a user with the annuities menu is taken from home to the verify screen after 100 ms. */
export const HOME_TO_VERIFY_MS = 100;
export const VERIFY_PATH = '/annuites/verify';

export function HomePage() {
  const { t } = useTranslation();
  usePageTitle(undefined);
  // Auth initialisation on mount of home.
  const { data: session = { ...LOGGED_OUT, user: null } } = useQuery(sessionQuery);
  const menus = menusFor(session);
  const first = (id: string) => menus.find((m) => m.id === id)?.items[0]?.to;
  const forwardToVerify = menus.some((m) => m.id === 'annuities');
  const navigate = useNavigate();

  useEffect(() => {
    if (!forwardToVerify) return undefined;
    // replace: Back from the verify screen must not land on home and be forwarded again.
    const timer = window.setTimeout(() => {
      // Only from home: a user who chose another screen within the 100 ms (while it loads, home may still be mounted) stays there.
      if (window.location.pathname === '/') navigate(VERIFY_PATH, { replace: true });
    }, HOME_TO_VERIFY_MS);
    return () => window.clearTimeout(timer);
  }, [forwardToVerify, navigate]);

  const areas = [
    { key: 'annuities', icon: IconCertificate, to: first('annuities') ?? first('patentAnnuities') },
    { key: 'ledes', icon: IconFileInvoice, to: first('ledes') },
    { key: 'support', icon: IconMail, to: '/contact' },
  ];

  return (
    <Stack gap={48}>
      <section className={classes.hero}>
        <Stack gap="md" maw={760}>
          {session.isAuthenticated && session.user && (
            <Badge variant="white" color="brand" size="lg" radius="sm" className={classes.badge}>
              {session.user.company_agent}
            </Badge>
          )}
          <Title order={1} className={classes.title}>
            {t('home.welcome')}
          </Title>
          <Title order={2} className={classes.subtitle}>
            {t('home.subtitle')}
          </Title>
          {!session.isAuthenticated && (
            <Group mt="sm">
              <Button component={Link} to="/login" size="md" color="accent.5" c="dark.9" leftSection={<IconLogin size={18} aria-hidden="true" />}>
                {t('nav.login')}
              </Button>
              <Button component={Link} to="/contact" size="md" variant="outline" color="white">
                {t('nav.contact')}
              </Button>
            </Group>
          )}
        </Stack>
      </section>

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {areas.map(({ key, icon: Icon, to }) => (
          <Card key={key} withBorder padding="lg" className={classes.card}>
            <Stack gap="sm" h="100%">
              <ThemeIcon size={44} radius="md" variant="light">
                <Icon size={24} aria-hidden="true" />
              </ThemeIcon>
              <Text fw={650} size="lg">
                {t(`home.areas.${key}.title`)}
              </Text>
              <Text size="sm" c="dimmed" style={{ flex: 1 }}>
                {t(`home.areas.${key}.text`)}
              </Text>
              {to && (
                <Button component={Link} to={to} variant="subtle" px={0} rightSection={<IconArrowRight size={16} aria-hidden="true" />} w="fit-content">
                  {t('home.open')}
                </Button>
              )}
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
