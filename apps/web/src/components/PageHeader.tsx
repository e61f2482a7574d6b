import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../lib/usePageTitle.ts';

export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  usePageTitle(title);
  return (
    <Group justify="space-between" align="flex-end" mb="lg" gap="md" wrap="wrap">
      <Stack gap={4}>
        <Title order={1} size="h2">
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm" maw={720}>
            {description}
          </Text>
        )}
      </Stack>
      {actions}
    </Group>
  );
}
