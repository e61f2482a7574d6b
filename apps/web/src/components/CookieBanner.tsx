import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCookie } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ConsentValue } from '../lib/cookies.ts';
import classes from './CookieBanner.module.css';

/**
 * Fixed at the bottom while no cookie-consent cookie exists. The frame renders it first in the document, so it is
 * first in the Tab order while shown; after a choice the frame moves the focus to the page's heading.
 */
export function CookieBanner({ onChoose }: { onChoose: (value: ConsentValue) => void }) {
  const { t } = useTranslation();
  return (
    <Paper className={classes.banner} shadow="lg" radius={0} role="region" aria-label={t('cookies.aria')} data-testid="cookie-banner">
      <Group justify="space-between" wrap="wrap" gap="md" className={classes.inner}>
        <Group gap="sm" wrap="nowrap" className={classes.textGroup}>
          <IconCookie size={28} aria-hidden="true" className={classes.icon} />
          <Text size="sm">{t('cookies.text')}</Text>
        </Group>
        <Group gap="sm">
          <Button variant="default" onClick={() => onChoose('declined')}>
            {t('cookies.decline')}
          </Button>
          <Button onClick={() => onChoose('accepted')}>{t('cookies.accept')}</Button>
        </Group>
      </Group>
    </Paper>
  );
}

/** Room at the end of the page so the fixed banner never hides the footer. */
export function CookieBannerSpacer() {
  return <div className={classes.spacer} aria-hidden="true" />;
}
