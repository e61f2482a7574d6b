import { Box, Progress } from '@mantine/core';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { NavBar } from '../components/NavBar.tsx';
import { Footer } from '../components/Footer.tsx';
import { CookieBanner } from '../components/CookieBanner.tsx';
import classes from './AppFrame.module.css';

export function AppFrame() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <div className={classes.frame}>
      <a href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </a>
      {navigation.state !== 'idle' && (
        <Progress value={100} animated striped size="xs" radius={0} className={classes.progress} aria-label={t('loader.loading')} />
      )}
      <NavBar />
      <Box component="main" id="main" className={classes.main} tabIndex={-1}>
        <Outlet />
      </Box>
      <Footer />
      <CookieBanner />
      <ScrollRestoration />
    </div>
  );
}
