import { useMemo, useState } from 'react';
import { Button, Group, Modal, Paper, SimpleGrid, Stack, Text, Textarea, ThemeIcon } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconInbox, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PatentSubmissionDto } from '@portal/contracts';
import { overlayProps } from '../../app/theme.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { ServerList } from '../../components/list/ServerList.tsx';
import { useServerList } from '../../components/list/useServerList.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ApiError } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { queryKeys } from '../../lib/queryKeys.ts';
import { acceptSubmission, instructionsQuery, rejectSubmission, submissionsQuery } from './api.ts';
import { formatDay, formatEuros, instructionLabels } from './model.ts';
import classes from './patents.module.css';

const PAGE_SIZE = 20;

function SubmissionCard({ s, title, onAccept, onReject, busy }: { s: PatentSubmissionDto; title: (id: number | null) => string; onAccept: () => void; onReject: () => void; busy: boolean }) {
  const { t, i18n } = useTranslation('patents');
  const items: [string, string | number | null][] = [
    ['numero_depot', s.numero_depot],
    ['numero_publication', s.numero_publication],
    ['reference_client', s.reference_client],
    ['reference_cabinet', s.reference_cabinet],
    ['date_depot', formatDay(s.date_depot)],
    ['date_echeance_annuites', formatDay(s.date_echeance_annuites)],
    ['pays', s.pays],
    ['origine', s.origine ? t(`add.origins.${s.origine}`, { defaultValue: s.origine }) : null],
    ['instruction_paiement', title(s.instruction_paiement)],
    ['quantieme', s.quantieme],
    ['cout', formatEuros(s.cout, i18n.language)],
  ];
  const ref = s.reference_client ?? s.numero_depot ?? s.numero_publication ?? s._id;
  return (
    <Stack gap="sm">
      <Text fw={650}>{ref}</Text>
      {s.submitted_by && (
        <Text size="xs" c="dark.4">
          {t('submissions.submittedBy', { name: `${s.submitted_by.name} (${s.submitted_by.email})`, date: formatDate(s.created) })}
        </Text>
      )}
      <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing={0} className={classes.fields}>
        {items.map(([key, value]) => (
          <div key={key}>
            <dt>{t(`add.fields.${key}`)}</dt>
            <dd>{value === null || value === '' ? t('detail.none') : value}</dd>
          </div>
        ))}
      </SimpleGrid>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" color="red" c="red.8" leftSection={<IconX size={16} aria-hidden="true" />} onClick={onReject} disabled={busy} aria-label={`${t('submissions.reject')} ${ref}`} data-testid="submission-reject">
          {t('submissions.reject')}
        </Button>
        <Button color="green.8" leftSection={<IconCheck size={16} aria-hidden="true" />} onClick={onAccept} loading={busy} aria-label={`${t('submissions.accept')} ${ref}`} data-testid="submission-accept">
          {t('submissions.accept')}
        </Button>
      </Group>
    </Stack>
  );
}

/** Admins review the patents users submitted: accept (it joins the portfolio) or reject with a reason (mailed to the submitter). */
export function SubmissionsPage() {
  const { t, i18n } = useTranslation('patents');
  const queryClient = useQueryClient();
  const phone = useMediaQuery('(max-width: 40em)');
  // Submissions have no search nor sort: the list's paging only (the oldest first, as the server orders them).
  const state = useServerList({ defaultSort: { id: 'created', desc: false }, sorts: ['created'] as const, defaultLimit: PAGE_SIZE });
  const [rejecting, setRejecting] = useState<PatentSubmissionDto | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState(false);
  const list = useQuery(submissionsQuery({ status: 'pending', page: state.page, limit: PAGE_SIZE }));
  const instructions = useQuery(instructionsQuery);
  const labels = useMemo(() => instructionLabels(instructions.data ?? [], i18n.language), [instructions.data, i18n.language]);
  const title = (id: number | null) => (id === null ? '' : (labels.find((l) => l.id === id)?.title ?? String(id)));

  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.patents.all() });
  };
  const failed = (error: Error) => notifyError(msg('patents:submissions.errorTitle'), error instanceof ApiError && error.message && !error.isServerError ? error.message : msg('patents:submissions.error'));
  const accept = useMutation({
    mutationFn: (s: PatentSubmissionDto) => acceptSubmission(s._id),
    onSuccess: async () => {
      notifySuccess(msg('patents:submissions.acceptedTitle'), msg('patents:submissions.accepted'));
      await done();
    },
    onError: failed,
  });
  const reject = useMutation({
    mutationFn: ({ s, text }: { s: PatentSubmissionDto; text: string }) => rejectSubmission(s._id, text),
    onSuccess: async () => {
      setRejecting(null);
      setReason('');
      notifySuccess(msg('patents:submissions.rejectedTitle'), msg('patents:submissions.rejected'));
      await done();
    },
    onError: failed,
  });
  const rows = list.data?.patent_submissions ?? [];
  const meta = list.data?.meta;

  return (
    <Stack gap="md" maw={1100} mx="auto" w="100%">
      <PageHeader title={t('submissions.title')} description={t('submissions.description')} />
      <ServerList
        query={list}
        state={state}
        rows={rows}
        totalPages={meta?.totalPages}
        card={(s) => (
          <SubmissionCard
            s={s}
            title={title}
            busy={accept.isPending && accept.variables._id === s._id}
            onAccept={() => accept.mutate(s)}
            onReject={() => {
              setRejecting(s);
              setReason('');
              setReasonError(false);
            }}
          />
        )}
        cardPadding="md"
        getRowId={(s) => s._id}
        rowProps={(s) => ({ 'data-id': s._id })}
        testId="submissions"
        rowTestId="submission"
        empty={
          <Paper withBorder p="xl">
            <Stack align="center" gap="xs" data-testid="submissions-empty">
              <ThemeIcon size={48} radius="xl" variant="light" color="gray">
                <IconInbox size={26} aria-hidden="true" />
              </ThemeIcon>
              <Text fw={600}>{t('submissions.empty')}</Text>
            </Stack>
          </Paper>
        }
        error={<LoadError message={t('annuities.loadError')} retryLabel={t('annuities.retry')} onRetry={() => void list.refetch().catch(() => undefined)} testId="submissions-load-error" />}
      />
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title={t('submissions.rejectTitle')} fullScreen={!!phone} {...overlayProps()} data-testid="submission-reject-modal">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const text = reason.trim();
            if (!text) {
              setReasonError(true);
              return;
            }
            if (rejecting) reject.mutate({ s: rejecting, text });
          }}
          noValidate
        >
          <Stack gap="md">
            <Textarea
              label={t('submissions.reason')}
              required
              autosize
              minRows={3}
              maxLength={2000}
              value={reason}
              onChange={(e) => {
                setReason(e.currentTarget.value);
                setReasonError(false);
              }}
              error={reasonError ? t('submissions.reasonRequired') : undefined}
              data-autofocus
              data-testid="submission-reason"
            />
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setRejecting(null)}>
                {t('add.cancel')}
              </Button>
              <Button type="submit" color="red.8" loading={reject.isPending} data-testid="submission-reject-confirm">
                {t('submissions.reject')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Stack>
  );
}
