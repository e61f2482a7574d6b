import { useDocumentTitle } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

/** Sets the tab title to "<page> · <brand>" in the current language. */
export function usePageTitle(page: string | undefined): void {
  const { t } = useTranslation();
  const brand = t('brand.name');
  useDocumentTitle(page ? `${page} · ${brand}` : brand);
}
