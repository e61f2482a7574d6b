import { notifications } from '@mantine/notifications';
import { TOAST_MS } from '../app/theme.ts';
import { translated, type Message } from './message.tsx';

/**
 * Toasts. A success confirmation closes after the spec's 2 s; an error stays until the user closes
 * it (WCAG 2.2.1: nobody must race a timer to read why something failed).
 */
export const toastTiming = {
  success: { autoClose: TOAST_MS, withCloseButton: true },
  error: { autoClose: false, withCloseButton: true },
} as const;

/** Pass a Message (a key and its parameters), not a translated string, so the toast follows a language switch. */
export function notifySuccess(title: Message | string, message?: Message | string): void {
  notifications.show({ title: translated(title), message: translated(message) ?? '', color: 'teal', withBorder: true, ...toastTiming.success });
}

export function notifyError(title: Message | string, message?: Message | string): void {
  notifications.show({ title: translated(title), message: translated(message) ?? '', color: 'red', withBorder: true, ...toastTiming.error });
}
