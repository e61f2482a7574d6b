import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/usePageTitle.ts';

/** Screens of later issues: inside the frame, guarded, with a translated notice. */
export function ComingSoonPage({ screen }: { screen: string }) {
  const { t } = useTranslation();
  usePageTitle(t(`screens.${screen}`));
  return (
    <Paper withBorder p={{ base: 'lg', sm: 48 }} maw={720} mx="auto" mt="lg">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={64} radius="xl" variant="light" color="accent">
          <IconTools size={34} aria-hidden="true" />
        </ThemeIcon>
        <Title order={1} size="h2" data-testid="coming-soon-title">
          {t(`screens.${screen}`)}
        </Title>
        <Text c="dimmed" maw={480}>
          {t('comingSoon.text')}
        </Text>
        <Button component={Link} to="/" variant="light">
          {t('comingSoon.back')}
        </Button>
      </Stack>
    </Paper>
  );
}
