import { useSyncExternalStore } from 'react';
import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { displayedLanguage, onDisplayedLanguage, switchLanguage } from '../lib/i18n.ts';
import { asLanguage, recordChosenLanguage } from '../lib/language.ts';

export function LanguageSwitcher() {
  const { t } = useTranslation();
  // The language shown or on its way (a switch in flight shows at once, so a pick during it changes it).
  const value = useSyncExternalStore(onDisplayedLanguage, displayedLanguage);
  return (
    <SegmentedControl
      size="xs"
      radius="xl"
      aria-label={t('language.label')}
      value={value}
      onChange={(v) => {
        // An explicit pick: before a login it wins over the account's language and is saved to the account.
        recordChosenLanguage(asLanguage(v) ?? 'en');
        // A language chunk that fails to load leaves the language as it was; the trace says why.
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
