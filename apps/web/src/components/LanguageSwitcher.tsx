import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '../lib/i18n.ts';
import { asLanguage, recordChosenLanguage } from '../lib/language.ts';

export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const value = asLanguage(i18n.resolvedLanguage ?? i18n.language) ?? 'en';
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      aria-label={t('language.label')}
      value={value}
      onChange={(v) => {
        // An explicit pick: before a login it wins over the account's language and is saved to the account.
        recordChosenLanguage(asLanguage(v) ?? 'en');
        // Resources are bundled, so a switch cannot fail to load; anything else is a bug worth a trace.
        switchLanguage(v).catch((error: unknown) => console.error('language switch failed', error));
      }}
      data={[
        { value: 'en', label: <span title={t('language.en')} lang="en">EN</span> },
        { value: 'fr', label: <span title={t('language.fr')} lang="fr">FR</span> },
      ]}
      data-testid="language-switcher"
    />
  );
}
