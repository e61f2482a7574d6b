import i18n from '../lib/i18n.ts';
import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

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
  '#8e5300',
  '#834b00',
];

/*
 * Accessible palettes (WCAG 2.2 AA, 1.4.3): Mantine's shades 0–6 are kept (backgrounds, borders, icons); shades 7–9
 * are darkened so that any text drawn with them — `c="red.7"`, filled buttons (shade 7, white text), outline badges
 * (shade 7) and light badges (shade 9 on shade 1) — reaches at least 4.5:1 on white, on grey-0 and on their own tints.
 * The figures are checked by apps/web/test/theme-contrast.test.ts.
 */
const red: MantineColorsTuple = ['#fff5f5', '#ffe3e3', '#ffc9c9', '#ffa8a8', '#ff8787', '#ff6b6b', '#fa5252', '#bc3131', '#b52828', '#a22222'];
const orange: MantineColorsTuple = ['#fff4e6', '#ffe8cc', '#ffd8a8', '#ffc078', '#ffa94d', '#ff922b', '#fd7e14', '#ab4705', '#a64009', '#9b340b'];
const teal: MantineColorsTuple = ['#e6fcf5', '#c3fae8', '#96f2d7', '#63e6be', '#38d9a9', '#20c997', '#12b886', '#097a58', '#076f4f', '#066447'];
const green: MantineColorsTuple = ['#ebfbee', '#d3f9d8', '#b2f2bb', '#8ce99a', '#69db7c', '#51cf66', '#40c057', '#257834', '#227131', '#20662e'];
const yellow: MantineColorsTuple = ['#fff9db', '#fff3bf', '#ffec99', '#ffe066', '#ffd43b', '#fcc419', '#fab005', '#966200', '#935600', '#8d4900'];

/** Secondary text (Mantine's "dimmed", descriptions, divider labels): 5.1:1 on grey-2, more on white and the tinted boxes. */
export const DIMMED = '#5c636a';
/** Field errors and error texts: red 9 (6.2:1 on red 1, 7.5:1 on white). */
export const ERROR = red[9];
/** Keyboard focus ring: brand 7 on light backgrounds (≥ 6.6:1), accent 3 on the dark footer (9:1). */
export const FOCUS_RING = brand[7];
export const FOCUS_RING_ON_DARK = accent[3];

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: { '--portal-focus-ring': FOCUS_RING, '--portal-focus-ring-on-dark': FOCUS_RING_ON_DARK },
  light: { '--mantine-color-dimmed': DIMMED, '--mantine-color-error': ERROR },
  dark: {},
});

/**
 * Shared props of every modal and drawer, read at each render (so in the current language): the close button is
 * named ("Close" / "Fermer"), and the dialog's <header> is not a second banner landmark.
 * The first focus goes to the element marked `data-autofocus` (a first field or the primary action), never the close button.
 */
export function overlayProps() {
  return {
    closeButtonProps: { 'aria-label': i18n.t('a11y.close', { ns: 'common' }) },
    attributes: { header: { role: 'presentation' } },
  };
}

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand, accent, red, orange, teal, green, yellow },
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
  // Users who ask for less motion get none (transitions of modals, menus, collapses).
  respectReducedMotion: true,
  components: {
    // Without the placeholder, the open menu holds only menu items (ARIA: required children); the keyboard still
    // opens it and moves into it with the arrow keys.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    Button: { defaultProps: { radius: 'md' } },
    // Mantine's Alert is role="alert" unless told otherwise: every coloured box (a hint, a file's verdict, a
    // summary inside its live region) was announced, nested alerts twice and a result page once per file. A box
    // is a note; what is announced is the live region that holds it, or an Alert given role="alert" itself.
    Alert: { defaultProps: { role: 'note' } },
    Paper: { defaultProps: { radius: 'lg' } },
    Card: { defaultProps: { radius: 'lg' } },
    TextInput: { defaultProps: { size: 'md' } },
    PasswordInput: { defaultProps: { size: 'md' } },
    Select: { defaultProps: { size: 'md', allowDeselect: false, comboboxProps: { withinPortal: true } } },
    Textarea: { defaultProps: { size: 'md' } },
    Notification: { defaultProps: () => ({ radius: 'md', closeButtonProps: { 'aria-label': i18n.t('a11y.closeNotification', { ns: 'common' }) } }) },
    Modal: {
      styles: { title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } },
      defaultProps: () => overlayProps(),
    },
    Drawer: { defaultProps: () => overlayProps() },
  },
});

/** Toasts, alerts and success popups last 2 s (spec §9). */
export const TOAST_MS = 2000;
