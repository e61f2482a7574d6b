import { useEffect, useRef } from 'react';
import { Alert, Button, CopyButton, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCopy, IconDownload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** The ten codes, shown once: copy, download, then "I have saved them". The heading takes the focus. */
export function RecoveryCodes({ codes, onDone, pending = false }: { codes: string[]; onDone(): void; pending?: boolean }) {
  const { t } = useTranslation('mfa');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const text = codes.join('\n');
  const download = () => {
    const blob = new Blob([`${t('recovery.fileHeader')}\n\n${text}\n`], { type: 'text/plain;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = 'ip-portal-recovery-codes.txt';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack gap="md" data-testid="mfa-recovery">
      <Title order={2} size="h3" ref={heading} tabIndex={-1}>
        {t('recovery.title')}
      </Title>
      <Alert variant="light" color="yellow" icon={<IconAlertTriangle size={18} aria-hidden="true" />}>
        {t('recovery.text')}
      </Alert>
      <SimpleGrid component="ul" cols={2} spacing="xs" verticalSpacing={6} aria-label={t('recovery.listLabel')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {codes.map((code) => (
          <Text component="li" key={code} ff="monospace" fw={600} size="md" ta="center" py={4} bg="var(--mantine-color-gray-0)" style={{ borderRadius: 4 }} data-testid="mfa-recovery-code">
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Stack gap="xs">
        <CopyButton value={text}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={<IconCopy size={16} aria-hidden="true" />} onClick={copy}>
              {copied ? t('recovery.copied') : t('recovery.copy')}
            </Button>
          )}
        </CopyButton>
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={download}>
          {t('recovery.download')}
        </Button>
      </Stack>
      <Button size="md" onClick={onDone} loading={pending} disabled={pending} data-testid="mfa-saved">
        {t('recovery.saved')}
      </Button>
    </Stack>
  );
}
