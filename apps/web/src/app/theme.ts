import { createTheme, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = [
  '#eaf2fb',
  '#d3e2f3',
  '#a6c3e6',
  '#76a2d9',
  '#4f86cd',
  '#3774c6',
  '#2a69c3',
  '#1d57ab',
  '#154d99',
  '#0b2545',
];

const accent: MantineColorsTuple = [
  '#fff6e6',
  '#fdebcf',
  '#fad49f',
  '#f7bc6a',
  '#f4a73e',
  '#f29a22',
  '#f29412',
  '#d78003',
  '#c07100',
  '#a76000',
];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand, accent },
  fontFamily:
    'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: {
    fontFamily:
      'Inter, "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    fontWeight: '650',
  },
  defaultRadius: 'md',
  cursorType: 'pointer',
  focusRing: 'auto',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Paper: { defaultProps: { radius: 'lg' } },
    Card: { defaultProps: { radius: 'lg' } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    Select: { defaultProps: { size: 'md', allowDeselect: false, comboboxProps: { withinPortal: true } } },
    Textarea: { defaultProps: { size: 'md' } },
    Notification: { defaultProps: { radius: 'md' } },
    Modal: { styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } } },
  },
});

/** Toasts, alerts and success popups last 2 s (spec §9). */
export const TOAST_MS = 2000;
