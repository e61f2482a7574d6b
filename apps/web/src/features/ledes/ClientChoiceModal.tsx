import { useEffect, useState } from 'react';
import { Button, Group, Modal, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { clientNameQuery } from './api.ts';
import { radioTabIndex } from '../../lib/roving.ts';

export interface ClientChoice {
  idClient: string;
  /** Recipient name (destinataire_libelle), when known. */
  name: string | undefined;
}

interface Props {
  opened: boolean;
  idClients: string[];
  onCancel: () => void;
  onConfirm: (choice: ClientChoice) => void;
}

/** Several client ids: the recipient is chosen before the files are sent. Names come from the agent's addresses. */
export function ClientChoiceModal({ opened, idClients, onCancel, onConfirm }: Props) {
  const { t } = useTranslation('ledes');
  const [value, setValue] = useState<string | null>(null);
  const names = useQueries({ queries: idClients.map((id) => ({ ...clientNameQuery(id), enabled: opened })) });

  useEffect(() => {
    if (opened) setValue(null);
  }, [opened, idClients]);

  const nameOf = (i: number) => names[i]?.data;

  return (
    <Modal opened={opened} onClose={onCancel} title={t('clientModal.title')} centered radius="lg" size="md" data-testid="client-modal">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('clientModal.description')}
        </Text>
        <Radio.Group value={value} onChange={setValue} aria-label={t('clientModal.label')}>
          <Stack gap="xs">
            {idClients.map((id, i) => {
              const q = names[i];
              return (
                <Radio.Card
                  key={id}
                  value={id}
                  radius="md"
                  p="sm"
                  data-testid="client-option"
                  tabIndex={radioTabIndex(id, value, idClients)}
                  aria-label={nameOf(i) ? `${nameOf(i)} (${id})` : id}
                  // The first focus goes to the first choice, not the close button.
                  data-autofocus={i === 0 || undefined}
                >
                  <Group wrap="nowrap" align="flex-start" gap="sm">
                    <Radio.Indicator mt={3} />
                    <div>
                      {q?.isPending ? (
                        <Skeleton h={14} w={160} mt={4} />
                      ) : (
                        <Text fw={600} size="sm">
                          {nameOf(i) ?? t('clientModal.nameUnavailable')}
                        </Text>
                      )}
                      <Text size="xs" c="dimmed" ff="monospace">
                        {id}
                      </Text>
                    </div>
                  </Group>
                </Radio.Card>
              );
            })}
          </Stack>
        </Radio.Group>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {t('clientModal.cancel')}
          </Button>
          <Button
            disabled={!value}
            data-testid="client-confirm"
            onClick={() => {
              if (!value) return;
              onConfirm({ idClient: value, name: nameOf(idClients.indexOf(value)) });
            }}
          >
            {t('clientModal.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
