import { Anchor, Badge, Button, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PatentRecordDto } from '@portal/contracts';
import { overlayProps } from '../../../app/theme.ts';
import { formatDate } from '../../../lib/format.ts';
import { patentDetailQuery } from '../api.ts';
import { DeadlineNote } from './DeadlineNote.tsx';
import { formatDay, formatEuros, type InstructionLabel } from '../model.ts';
import { patentRef } from './InstructionChoice.tsx';
import { PatentCosts } from './PatentCosts.tsx';
import { PatentHistory, PatentLedger, PatentReceipts, PatentSchedule } from './PatentExtras.tsx';
import { ScheduleMismatchNotice } from './ScheduleMismatch.tsx';
import classes from '../patents.module.css';

type FieldKey = keyof PatentRecordDto | 'status' | 'cabinet';

/** The European register of a published number (Espacenet answers any office's publication). */
export function registerUrl(publication: string | null): string | null {
  const n = publication?.replace(/[\s/.,-]/g, '');
  return n ? `https://worldwide.espacenet.com/patent/search?q=pn%3D${encodeURIComponent(n)}` : null;
}

function Fields({ items }: { items: [FieldKey, string | number | null | undefined][] }) {
  const { t } = useTranslation('patents');
  return (
    <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={0} className={classes.fields}>
      {items.map(([key, value]) => (
        <div key={key} data-testid={`detail-${key}`}>
          <dt>{t(`detail.fields.${key}`)}</dt>
          <dd>{value === null || value === undefined || value === '' ? <Text span size="sm" c="dark.4">{t('detail.none')}</Text> : value}</dd>
        </div>
      ))}
    </SimpleGrid>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={6} component="section">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The patent detail modal: every field of the record view, the schedule and the audit trail, the register link. */
export function PatentDetailModal({ patent, labels, onClose }: { patent: PatentRecordDto | null; labels: InstructionLabel[]; onClose: () => void }) {
  const { t, i18n } = useTranslation('patents');
  const phone = useMediaQuery('(max-width: 40em)');
  const detail = useQuery({ ...patentDetailQuery(patent?._id ?? '', patent ?? undefined), enabled: patent !== null });
  const p = detail.data ?? patent;
  const lang = i18n.language;
  const register = registerUrl(p?.NoPublication ?? null);
  const instruction = labels.find((l) => l.id === p?.id_instruction);
  return (
    <Modal
      opened={patent !== null}
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      title={p ? t('detail.title', { ref: patentRef(p) }) : ''}
      {...overlayProps()}
      data-testid="patent-detail"
    >
      {p && (
        <Stack gap="md">
          {detail.isError && (
            <Text c="red.8" role="alert" size="sm">
              {t('detail.loadError')}
            </Text>
          )}
          {p.locked && (
            <Badge variant="light" color="gray" c="dark.6" tt="none" radius="sm" style={{ whiteSpace: 'normal', height: 'auto' }} py={4}>
              {t('detail.fields.locked', { reason: t(`lock.${p.locked}`) })}
            </Badge>
          )}
          <Section title={t('detail.sections.identity')}>
            <Fields
              items={[
                ['ReferenceClient', p.ReferenceClient],
                ['nosref', p.nosref],
                ['noDepot', p.noDepot],
                ['NoPublication', p.NoPublication],
                ['Pays', p.Pays],
                ['Origine', p.Origine ? t(`add.origins.${p.Origine}`, { defaultValue: p.Origine }) : null],
                ['Depot', formatDay(p.Depot)],
                ['Expiration', formatDay(p.Expiration)],
                ['TitreFrancais', p.TitreFrancais],
                ['TitreAnglais', p.TitreAnglais],
                ['DonneurOrdre', p.DonneurOrdre],
                ['DonneurOrdreAn', p.DonneurOrdreAn],
                ['code_client', p.code_client],
                ['cabinet', p.cabinet.name],
                ['idagenda', p.idagenda],
                ['idbrevet', p.idbrevet],
              ]}
            />
            {register && (
              <Anchor href={register} target="_blank" rel="noopener noreferrer" size="sm" data-testid="register-link">
                <Group gap={4} component="span">
                  {t('detail.register')}
                  <IconExternalLink size={14} aria-hidden="true" />
                </Group>
              </Anchor>
            )}
          </Section>
          <Section title={t('detail.sections.annuity')}>
            <ScheduleMismatchNotice row={p} />
            <Fields
              items={[
                ['DateEcheance', formatDay(p.DateEcheance)],
                ['DateLimite', formatDay(p.DateLimite)],
                ['Quantieme', p.Quantieme],
                ['cost', formatEuros(p.cost, lang)],
              ]}
            />
            <DeadlineNote row={p} />
          </Section>
          <Section title={t('detail.sections.instruction')}>
            <Fields
              items={[
                ['instruction', instruction?.title],
                ['status', t(`status.${p.instruction.traitement_instruction}`)],
                ['exported_at', p.exported_at ? formatDate(p.exported_at) : null],
              ]}
            />
          </Section>
          <Section title={t('detail.sections.dates')}>
            <Fields
              items={[
                ['DateAcquit', formatDay(p.DateAcquit)],
                ['DatePaiementOffice', formatDay(p.DatePaiementOffice)],
                ['DateReponseACourrier', formatDay(p.DateReponseACourrier)],
                ['DatePaiementClient', formatDay(p.DatePaiementClient)],
              ]}
            />
          </Section>
          <PatentCosts costs={detail.data?.costs} />
          <PatentLedger id={p._id} />
          <PatentSchedule id={p._id} />
          <PatentHistory id={p._id} labels={labels} />
          <PatentReceipts id={p._id} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-testid="patent-detail-close">
              {t('detail.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
