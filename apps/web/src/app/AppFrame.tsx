import { useState } from 'react';
import { Box, VisuallyHidden } from '@mantine/core';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { NavBar } from '../components/NavBar.tsx';
import { Footer } from '../components/Footer.tsx';
import { CookieBanner, CookieBannerSpacer } from '../components/CookieBanner.tsx';
import { getConsent, setConsent, type ConsentValue } from '../lib/cookies.ts';
import { focusHeading, useRouteFocus } from './focusOnRouteChange.ts';
import classes from './AppFrame.module.css';

export function AppFrame() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const announcement = useRouteFocus();
  const [consent, setConsentState] = useState<ConsentValue | undefined>(() => getConsent());
  const choose = (value: ConsentValue) => {
    setConsent(value);
    setConsentState(value);
    // The banner held the focus: hand it to the start of the page's content.
    focusHeading();
  };
  return (
    <div className={classes.frame}>
      {!consent && <CookieBanner onChoose={choose} />}
      <a href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </a>
      {/* Indeterminate (no value): the next screen is on its way. A plain element, not Mantine's Progress, whose
          code would weigh on every first load for a bar shown only between screens. */}
      {navigation.state !== 'idle' && <div role="progressbar" className={classes.progress} aria-label={t('loader.loading')} />}
      <NavBar />
      <Box component="main" id="main" className={classes.main} tabIndex={-1}>
        <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" aria-label={t('a11y.liveRegion')} data-testid="route-announcer">
          {announcement}
        </VisuallyHidden>
        <Outlet />
      </Box>
      <Footer />
      {!consent && <CookieBannerSpacer />}
      <ScrollRestoration />
    </div>
  );
}
