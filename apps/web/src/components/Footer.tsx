import { Anchor, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { sessionQuery } from '../lib/auth.ts';
import { Logo } from './Logo.tsx';
import classes from './Footer.module.css';

export function Footer() {
  const { t } = useTranslation();
  const { data: session } = useQuery(sessionQuery);
  return (
    <footer className={classes.footer}>
      <div className={classes.inner}>
        <Logo inverted size={32} />
        <Group gap="lg" className={classes.links}>
          <Anchor component={Link} to="/contact" c="gray.2" size="sm">
            {t('nav.contact')}
          </Anchor>
          {session?.isAuthenticated && (
            <Anchor component={Link} to="/account/security" c="gray.2" size="sm" data-testid="footer-security">
              {t('nav.security')}
            </Anchor>
          )}
          {session?.isAuthenticated && (
            <Anchor component={Link} to="/account/notifications" c="gray.2" size="sm" data-testid="footer-notifications">
              {t('nav.notifications')}
            </Anchor>
          )}
          <Anchor component={Link} to="/privacy-policy" c="gray.2" size="sm">
            {t('nav.privacy')}
          </Anchor>
          <Anchor component={Link} to="/terms-condition" c="gray.2" size="sm">
            {t('nav.terms')}
          </Anchor>
        </Group>
        <Text size="sm" c="gray.4">
          {t('footer.copyright')}
        </Text>
      </div>
    </footer>
  );
}
