import { useState, type ReactNode } from 'react';
import { Badge, Button, Collapse, Group, List, Paper, Progress, Stack, Text } from '@mantine/core';

const STATE_COLOUR = { Done: 'green', in_progress: 'orange', Error: 'red' } as const;

export type RunState = keyof typeof STATE_COLOUR;

export interface RunCardProps {
  /** The card's `data-testid`; its parts take it as a prefix (`-name`, `-state`, `-progress`, `-error`, `-counts`, `-refused-toggle`, `-refused`). */
  testId: string;
  /** Unique on the page: names the refused list the toggle controls. */
  id: string;
  name: string;
  /** The line under the name (date, size). */
  meta: string;
  state: RunState;
  stateLabel: string;
  /** While the run works: `percent` null when the total is not known yet (a striped bar). */
  progress: { percent: number | null; label: string; text: string };
  /** Shown when the run ended in Error, instead of the counts. */
  error: string;
  counts: string;
  refused: {
    /** How many were refused in all (the list may keep fewer). */
    count: number;
    items: { key: string; text: ReactNode }[];
    show: string;
    hide: string;
    /** Said above the list when it keeps fewer than `count`. */
    kept: string;
  };
}

/**
 * One background run the user started (a portfolio import, a receipt upload): its name and state,
 * its progress while it works, then its counts or its error, and the refused rows or entries with
 * their reasons behind a toggle. A list item: put it in a `ul`.
 */
export function RunCard({ testId, id, name, meta, state, stateLabel, progress, error, counts, refused }: RunCardProps) {
  const [open, setOpen] = useState(false);
  const refusedId = `refused-${id}`;
  return (
    <Paper component="li" withBorder p="md" radius="md" data-testid={testId} data-state={state}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
          <Stack gap={2} miw={0}>
            <Text fw={600} className="portal-break" data-testid={`${testId}-name`}>
              {name}
            </Text>
            <Text size="xs" c="dimmed">
              {meta}
            </Text>
          </Stack>
          <Badge variant="light" color={STATE_COLOUR[state]} c={`${STATE_COLOUR[state]}.9`} radius="sm" tt="none" data-testid={`${testId}-state`}>
            {stateLabel}
          </Badge>
        </Group>
        {state === 'in_progress' && (
          <Stack gap={4}>
            <Progress
              value={progress.percent ?? 100}
              animated
              striped={progress.percent === null}
              color="orange"
              size="sm"
              aria-label={progress.label}
              aria-valuetext={progress.text}
              data-testid={`${testId}-progress`}
            />
            <Text size="xs" c="dimmed">
              {progress.text}
            </Text>
          </Stack>
        )}
        {state === 'Error' ? (
          <Text size="sm" c="red.8" data-testid={`${testId}-error`}>
            {error}
          </Text>
        ) : (
          <Text size="sm" data-testid={`${testId}-counts`}>
            {counts}
          </Text>
        )}
        {refused.items.length > 0 && (
          <>
            <Group>
              <Button variant="subtle" size="compact-sm" onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={refusedId} data-testid={`${testId}-refused-toggle`}>
                {open ? refused.hide : refused.show}
              </Button>
            </Group>
            <Collapse expanded={open} id={refusedId}>
              {refused.count > refused.items.length && (
                <Text size="xs" c="dimmed" mb={4}>
                  {refused.kept}
                </Text>
              )}
              <List size="sm" spacing={2} data-testid={`${testId}-refused`}>
                {refused.items.map((item) => (
                  <List.Item key={item.key} className="portal-break">
                    {item.text}
                  </List.Item>
                ))}
              </List>
            </Collapse>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** A run's progress in percent, or null while its total is not known. */
export function runPercent(done: number, total: number | null): number | null {
  return total ? Math.min(100, Math.round((100 * done) / total)) : null;
}
