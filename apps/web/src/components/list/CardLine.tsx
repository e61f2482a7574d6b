import { Text } from '@mantine/core';

/** One labelled value of a phone card ("Client reference ABC-1"); nothing when the value is empty. */
export function CardLine({ label, value }: { label: string; value: string | null | undefined }) {
  if (!value) return null;
  return (
    <Text size="xs">
      <Text span c="dark.4" size="xs">
        {label}
      </Text>{' '}
      {value}
    </Text>
  );
}
