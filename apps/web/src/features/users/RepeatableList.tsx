import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';

interface Props {
  label: string;
  itemLabel: (index: number) => string;
  addLabel: string;
  removeLabel: (index: number) => string;
  values: string[];
  onChange: (values: string[]) => void;
  errors?: (string | undefined)[];
  testId: string;
}

/** A list of text inputs with add / remove; the remove button shows only when there is more than one. */
export function RepeatableList({ label, itemLabel, addLabel, removeLabel, values, onChange, errors = [], testId }: Props) {
  return (
    <Stack gap="xs" data-testid={testId}>
      <Text fw={500} size="sm" component="div">
        {label}{' '}
        <Text component="span" c="red.6" aria-hidden="true">
          *
        </Text>
      </Text>
      {values.map((value, index) => (
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            aria-label={itemLabel(index)}
            placeholder={itemLabel(index)}
            value={value}
            required
            error={errors[index]}
            onChange={(e) => {
              const next = [...values];
              next[index] = e.currentTarget.value;
              onChange(next);
            }}
          />
          {values.length > 1 && (
            <ActionIcon
              variant="light"
              color="red"
              size={42}
              aria-label={removeLabel(index)}
              onClick={() => onChange(values.filter((_, i) => i !== index))}
            >
              <IconTrash size={18} aria-hidden="true" />
            </ActionIcon>
          )}
        </Group>
      ))}
      <Button
        variant="subtle"
        size="sm"
        leftSection={<IconPlus size={16} aria-hidden="true" />}
        onClick={() => onChange([...values, ''])}
        w="fit-content"
        px={6}
      >
        {addLabel}
      </Button>
    </Stack>
  );
}
