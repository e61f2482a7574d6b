import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * A text that stays on screen for a while (a notification, a form error, an alert), kept as a
 * translation key and its parameters rather than as a translated string: it is translated when it is
 * rendered, so it follows a language switch instead of staying in the language it was created in.
 * A parameter may itself be a message (a translated reason inside a sentence).
 */
export interface Message {
  key: string;
  params?: Readonly<Record<string, string | number | Message>>;
}

export function msg(key: string, params?: Message['params']): Message {
  return params ? { key, params } : { key };
}

/** The message in the language of `t`, its message parameters translated first. */
export function translate(t: TFunction, message: Message): string {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(message.params ?? {})) params[name] = typeof value === 'object' ? translate(t, value) : value;
  return t(message.key, params);
}

function Translated({ message }: { message: Message }): ReactNode {
  // Subscribes to language changes: the text is rendered again after each switch.
  const { t } = useTranslation();
  return translate(t, message);
}

/** A node showing the message in the current language, now and after every switch; a plain string (a name, a server text) as it is. */
export function translated(message: Message | string | undefined): ReactNode {
  if (message === undefined || typeof message === 'string') return message;
  return <Translated message={message} />;
}
