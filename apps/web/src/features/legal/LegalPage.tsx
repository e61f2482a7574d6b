import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';

/** Placeholder filler text only (spec route table). */
export function LegalPage({ kind }: { kind: 'privacy' | 'terms' }) {
  const { t } = useTranslation();
  const sections = t(`legal.sections`, { returnObjects: true }) as { title: string; text: string }[];
  return (
    <Stack gap="lg" maw={860}>
      <PageHeader title={t(`legal.${kind}.title`)} description={t(`legal.${kind}.intro`)} />
      <Paper withBorder p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap="lg">
          {sections.map((s) => (
            <Stack key={s.title} gap={6}>
              <Title order={2} size="h4">
                {s.title}
              </Title>
              <Text size="sm" c="dark.5" lh={1.7}>
                {s.text}
              </Text>
            </Stack>
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
