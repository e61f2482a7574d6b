import { notifications } from '@mantine/notifications';
import { TOAST_MS } from '../app/theme.ts';

export function notifySuccess(title: string, message?: string): void {
  notifications.show({ title, message: message ?? '', color: 'teal', autoClose: TOAST_MS, withBorder: true });
}

export function notifyError(title: string, message?: string): void {
  notifications.show({ title, message: message ?? '', color: 'red', autoClose: TOAST_MS, withBorder: true });
}
