import { useCallback } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LedesOfficeDto } from '@portal/contracts';
import { officesQuery, type LedesItemDto } from './api.ts';
import { displayLine, type LineRef } from './model.ts';

/** Office label in the UI language (the code while the list loads or for an unknown office). */
export function officeLabel(office: LedesOfficeDto | undefined, code: string, lang: string): string {
  if (!office) return code;
  return lang.startsWith('fr') ? office.label_fr : office.label_en;
}

export function useOfficeLabel(): (code: string) => string {
  const { i18n } = useTranslation();
  const offices = useQuery(officesQuery);
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return useCallback((code: string) => officeLabel(offices.data?.find((o) => o.code === code), code, lang), [offices.data, lang]);
}

/** The finding's label in the current UI language. */
export function useItemLabel(): (item: Pick<LedesItemDto, 'libelle_en' | 'libelle_fr'>) => string {
  const { i18n } = useTranslation();
  const fr = (i18n.resolvedLanguage ?? i18n.language).startsWith('fr');
  return useCallback((item) => (fr ? item.libelle_fr || item.libelle_en : item.libelle_en || item.libelle_fr), [fr]);
}

/** "12", "File" / "Fichier", "Header" / "En-tête". */
export function useLineLabel(): (line: LineRef) => string {
  const { t } = useTranslation('ledes');
  return useCallback(
    (line: LineRef) => {
      const shown = displayLine(line);
      return typeof shown === 'number' ? String(shown) : t(`result.line.${shown}`);
    },
    [t],
  );
}
