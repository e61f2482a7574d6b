import { useTranslation } from 'react-i18next';
import classes from './Loader.module.css';

/** Bouncing dots with the "Loading" text, shown while `loading` is true. */
export function Loader({ loading, label }: { loading: boolean; label?: string }) {
  const { t } = useTranslation();
  if (!loading) return null;
  return (
    <div className={classes.wrap} role="status" aria-live="polite">
      <div className={classes.dots} aria-hidden="true">
        <span />
        <span />
        <span />
      </div>
      <span className={classes.text}>{label ?? t('loader.loading')}</span>
    </div>
  );
}
