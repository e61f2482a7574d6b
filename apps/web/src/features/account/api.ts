import type { NotificationSettings, NotificationSettingsResponse } from '@portal/contracts';
import { api } from '../../lib/api.ts';

export const getNotifications = (signal?: AbortSignal) => api<NotificationSettingsResponse>('/account/notifications', { signal });
export const putNotifications = (change: Partial<NotificationSettings>) => api<NotificationSettingsResponse>('/account/notifications', { method: 'PUT', body: change });
