import { Pagination as MantinePagination, type PaginationProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Mantine's pagination with names for its icon-only controls (first, previous, next, last): without
 * them a screen reader hears "button" and axe reports button-name (critical).
 */
export function Pagination(props: PaginationProps) {
  const { t } = useTranslation('common');
  return <MantinePagination getControlProps={(control) => ({ 'aria-label': t(`pageControl.${control}`) })} {...props} />;
}
