import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';

interface Props {
  label: string;
  itemLabel: (index: number) => string;
  addLabel: string;
  removeLabel: (index: number) => string;
  count: number;
  onAdd: () => void;
  onRemove: (index: number) => void;
  /** The form's props of one item (value, onChange, error, data-path). */
  inputProps: (index: number) => GetInputPropsReturnType;
  testId: string;
}

/** A list of text inputs with add / remove; the remove button shows only when there is more than one. */
export function RepeatableList({ label, itemLabel, addLabel, removeLabel, count, onAdd, onRemove, inputProps, testId }: Props) {
  return (
    <Stack gap="xs" data-testid={testId} role="group" aria-label={label}>
      <Text fw={500} size="sm" component="div" aria-hidden="true">
        {label}{' '}
        <Text component="span" c="red.8">
          *
        </Text>
      </Text>
      {Array.from({ length: count }, (_, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput style={{ flex: 1 }} aria-label={itemLabel(index)} placeholder={itemLabel(index)} required {...inputProps(index)} />
          {count > 1 && (
            <ActionIcon variant="light" color="red" size={42} aria-label={removeLabel(index)} onClick={() => onRemove(index)}>
              <IconTrash size={18} aria-hidden="true" />
            </ActionIcon>
          )}
        </Group>
      ))}
      <Button variant="subtle" size="sm" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={onAdd} w="fit-content" px={6}>
        {addLabel}
      </Button>
    </Stack>
  );
}
