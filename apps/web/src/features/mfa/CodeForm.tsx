import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { msg, translated, type Message } from '../../lib/message.tsx';
import { mfaErrorMessage } from './errors.ts';

interface CodeFormProps {
  /** Sends the code; a rejection is shown under the field, which takes the focus back. */
  onSubmit(code: string): Promise<unknown>;
  submitLabel: string;
  /** The sign-in and the turning off also take a recovery code. */
  allowRecovery?: boolean;
  /** Focus the field when the form appears (the first thing to do on the screen). */
  autoFocus?: boolean;
  /** Called instead of showing the error when it is for the screen rather than the field (an expired sign-in). */
  onFatal?(error: unknown): boolean;
  testId: string;
}

/** One field for a 6-digit code (numeric keyboard, one-time-code autofill) or, on request, a recovery code. */
export function CodeForm({ onSubmit, submitLabel, allowRecovery = false, autoFocus = false, onFatal, testId }: CodeFormProps) {
  const { t } = useTranslation('mfa');
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (autoFocus || recovery) input.current?.focus();
  }, [autoFocus, recovery]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = value.replace(/\s+/g, '');
    if (!code) {
      setError(msg('mfa:errors.mfa_code_empty'));
      input.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    onSubmit(code).then(
      () => setPending(false),
      (err: unknown) => {
        setPending(false);
        if (onFatal?.(err)) return;
        setError(mfaErrorMessage(err));
        setValue('');
        input.current?.focus();
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid={testId}>
      <Stack gap="md">
        <TextInput
          ref={input}
          name={recovery ? 'recovery_code' : 'code'}
          label={recovery ? t('signIn.recoveryCode') : t('signIn.code')}
          description={recovery ? t('signIn.recoveryHint') : t('signIn.codeHint')}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          inputMode={recovery ? 'text' : 'numeric'}
          pattern={recovery ? undefined : '[0-9 ]*'}
          maxLength={recovery ? 16 : 7}
          spellCheck={false}
          autoCapitalize="none"
          required
          size="md"
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            if (error) setError(null);
          }}
          error={error ? translated(error) : undefined}
          errorProps={{ role: 'alert', 'data-testid': 'mfa-error' }}
          styles={{ input: { letterSpacing: recovery ? '0.08em' : '0.3em', fontVariantNumeric: 'tabular-nums' } }}
          data-testid="mfa-code"
        />
        <Button type="submit" fullWidth size="md" loading={pending} disabled={pending} data-testid="mfa-submit">
          {submitLabel}
        </Button>
        {allowRecovery && (
          <Anchor
            component="button"
            type="button"
            size="sm"
            ta="center"
            onClick={() => {
              setRecovery((r) => !r);
              setValue('');
              setError(null);
            }}
            data-testid="mfa-toggle-recovery"
          >
            {recovery ? t('signIn.useApp') : t('signIn.useRecovery')}
          </Anchor>
        )}
      </Stack>
    </form>
  );
}
