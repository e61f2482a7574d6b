import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconShieldX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { msg, translated, type Message } from '../../lib/message.tsx';
import { notifySuccess } from '../../lib/notify.ts';
import { resetUserMfa } from './api.ts';
import { mfaErrorMessage } from './errors.ts';

/**
 * The users screen's row action: reset a user's second factor (a lost phone), after an "Are you sure?"
 * worded for the user's case (an administrator enrols again at the next sign-in, anyone else goes on with the
 * password alone). Offered only where the second factor is on.
 */
export function ResetMfaButton({ userId, name, isAdmin, onReset }: { userId: string; name: string; isAdmin: boolean; onReset?(): void }) {
  const { t } = useTranslation('mfa');
  const [opened, setOpened] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Message | null>(null);
  const close = () => {
    setOpened(false);
    setError(null);
  };
  const confirm = () => {
    setPending(true);
    setError(null);
    resetUserMfa(userId).then(
      () => {
        setPending(false);
        close();
        notifySuccess(msg('mfa:reset.done'));
        onReset?.();
      },
      (err: unknown) => {
        setPending(false);
        setError(mfaErrorMessage(err));
      },
    );
  };
  return (
    <>
      <Button
        variant="subtle"
        size="compact-sm"
        color="red"
        leftSection={<IconShieldX size={14} aria-hidden="true" />}
        aria-label={t('reset.actionFor', { name })}
        onClick={() => setOpened(true)}
        data-testid="mfa-reset"
      >
        {t('reset.action')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('reset.title')} centered radius="lg">
        <Stack gap="md">
          <Text size="sm">{isAdmin ? t('reset.confirmAdmin', { name }) : t('reset.confirmUser', { name })}</Text>
          {error && (
            <Text c="red.7" size="sm" role="alert">
              {translated(error)}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              {t('reset.cancel')}
            </Button>
            <Button color="red" onClick={confirm} loading={pending} data-testid="mfa-reset-confirm">
              {t('reset.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
