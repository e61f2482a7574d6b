import { Loader, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** A search box: the magnifier, a small spinner while the results it asked for are coming. */
export function SearchInput({ fetching, onValue, ...props }: Omit<TextInputProps, 'onChange' | 'leftSection' | 'rightSection' | 'type'> & { fetching?: boolean; onValue: (value: string) => void }) {
  return (
    <TextInput
      type="search"
      leftSection={<IconSearch size={16} aria-hidden="true" />}
      rightSection={fetching ? <Loader size={14} /> : null}
      onChange={(e) => onValue(e.currentTarget.value)}
      {...props}
    />
  );
}
