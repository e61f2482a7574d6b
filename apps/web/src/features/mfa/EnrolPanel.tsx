import { Button, CopyButton, Group, Image, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { MfaEnrolment } from '@portal/contracts';
import { CodeForm } from './CodeForm.tsx';

/** The secret in groups of four: easier to type into an app by hand. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

/** QR code, the key as text, then the first code that confirms the enrolment. */
export function EnrolPanel({ enrolment, onConfirm, onFatal }: { enrolment: MfaEnrolment; onConfirm(code: string): Promise<unknown>; onFatal?(error: unknown): boolean }) {
  const { t } = useTranslation('mfa');
  return (
    <Stack gap="md" data-testid="mfa-enrol">
      <Text size="sm">{t('enrol.step1')}</Text>
      <Group justify="center">
        <Image src={enrolment.qr} alt={t('enrol.qrAlt')} w={200} h={200} fit="contain" bg="white" radius="sm" data-testid="mfa-qr" />
      </Group>
      <Stack gap={4}>
        <Text size="sm">{t('enrol.step2')}</Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Text
            component="code"
            aria-label={t('enrol.secretLabel')}
            ff="monospace"
            fw={600}
            size="sm"
            style={{ overflowWrap: 'anywhere', flex: 1 }}
            data-testid="mfa-secret"
            data-secret={enrolment.secret}
          >
            {grouped(enrolment.secret)}
          </Text>
          <CopyButton value={enrolment.secret}>
            {({ copied, copy }) => (
              <Button variant="light" size="xs" onClick={copy} aria-live="polite">
                {copied ? t('recovery.copied') : t('enrol.copyKey')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      <Text size="sm">{t('enrol.step3')}</Text>
      <CodeForm onSubmit={onConfirm} onFatal={onFatal} submitLabel={t('enrol.confirm')} testId="mfa-enrol-form" />
    </Stack>
  );
}
