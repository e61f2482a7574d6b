import { Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import logoMark from '../assets/logo-mark.svg';
import classes from './Logo.module.css';

export function Logo({ inverted = false, size = 36, compactOnTablet = false }: { inverted?: boolean; size?: number; compactOnTablet?: boolean }) {
  const { t } = useTranslation();
  return (
    // Named by its visible text (WCAG 2.5.3): the brand name and tagline, never an aria-label that differs from them.
    <Link to="/" className={classes.link} data-inverted={inverted || undefined}>
      <Group gap={10} wrap="nowrap">
        <img src={logoMark} width={size} height={size} alt="" aria-hidden="true" />
        <div className={classes.words} data-compact-tablet={compactOnTablet || undefined}>
          <Text component="span" className={classes.name}>
            {t('brand.name')}
          </Text>
          <Text component="span" className={classes.tagline}>
            {t('brand.tagline')}
          </Text>
        </div>
      </Group>
    </Link>
  );
}
