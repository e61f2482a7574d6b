import { useState } from 'react';
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconCookie } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { getConsent, setConsent, type ConsentValue } from '../lib/cookies.ts';
import classes from './CookieBanner.module.css';

/** Fixed at the bottom while no cookie-consent cookie exists. */
export function CookieBanner() {
  const { t } = useTranslation();
  const [consent, setConsentState] = useState<ConsentValue | undefined>(() => getConsent());
  if (consent) return null;
  const choose = (value: ConsentValue) => {
    setConsent(value);
    setConsentState(value);
  };
  return (
    <>
      {/* Room at the end of the page so the fixed banner never hides the footer. */}
      <div className={classes.spacer} aria-hidden="true" />
      <Paper className={classes.banner} shadow="lg" radius={0} role="region" aria-label={t('cookies.aria')} data-testid="cookie-banner">
        <Group justify="space-between" wrap="wrap" gap="md" className={classes.inner}>
          <Group gap="sm" wrap="nowrap" className={classes.textGroup}>
            <IconCookie size={28} aria-hidden="true" className={classes.icon} />
            <Text size="sm">{t('cookies.text')}</Text>
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={() => choose('declined')}>
              {t('cookies.decline')}
            </Button>
            <Button onClick={() => choose('accepted')}>{t('cookies.accept')}</Button>
          </Group>
        </Group>
      </Paper>
    </>
  );
}
