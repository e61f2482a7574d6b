import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import classes from './AuthCard.module.css';
import { usePageTitle } from '../lib/usePageTitle.ts';

/** Narrow centred card used by the account screens. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string | undefined; children: ReactNode }) {
  usePageTitle(title);
  return (
    <div className={classes.wrap}>
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }} className={classes.card}>
        <Stack gap="xs" mb="lg">
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          )}
        </Stack>
        {children}
      </Paper>
    </div>
  );
}
