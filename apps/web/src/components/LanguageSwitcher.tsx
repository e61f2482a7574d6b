import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { displayedLanguage, onDisplayedLanguage, switchLanguage } from '../lib/i18n.ts';
import { asLanguage, recordChosenLanguage } from '../lib/language.ts';
import classes from './LanguageSwitcher.module.css';

const LANGUAGES = ['en', 'fr'] as const;

/**
 * EN | FR as a native radio group (arrow keys move and choose, as in any radio group). Not Mantine's
 * SegmentedControl: its sliding indicator measures the layout at each render, which cost the login screen
 * ~150 ms of a slow phone's first render, for an effect CSS gives here.
 */
export function LanguageSwitcher() {
  const { t } = useTranslation();
  // The language shown or on its way (a switch in flight shows at once, so a pick during it changes it).
  const value = useSyncExternalStore(onDisplayedLanguage, displayedLanguage);
  const choose = (v: string) => {
    const lang = asLanguage(v) ?? 'en';
    // An explicit pick: before a login it wins over the account's language and is saved to the account.
    recordChosenLanguage(lang);
    // A language chunk that fails to load leaves the language as it was; the trace says why.
    switchLanguage(lang).catch((error: unknown) => console.error('language switch failed', error));
  };
  return (
    <div role="radiogroup" aria-label={t('language.label')} className={classes.group} data-testid="language-switcher">
      {LANGUAGES.map((lang) => (
        <label key={lang} className={classes.option}>
          <input type="radio" name="portal-language" value={lang} checked={value === lang} onChange={(e) => choose(e.currentTarget.value)} className={classes.input} />
          <span className={classes.label} title={t(`language.${lang}`)} lang={lang}>
            {lang.toUpperCase()}
          </span>
        </label>
      ))}
    </div>
  );
}
