import { useEffect, useRef } from 'react';
import { Button, Grid, Group, Paper, Select, Stack, Text, TextInput, Textarea, ThemeIcon, Title } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTACT_ISSUES, CONTACT_TOPICS, contactBody, type ContactBody, type ContactIssue } from '@portal/contracts';
import { ApiError } from '../../lib/api.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { useSchemaForm } from '../../lib/form.ts';
import { msg } from '../../lib/message.tsx';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { FormErrorSummary } from '../../components/FormErrorSummary.tsx';
import { sendContact } from './api.ts';

interface ContactValues extends Record<string, unknown> {
  mail: string;
  issue: ContactIssue | '';
  topic: string;
  details: string;
}

/** Error code → key in the contact namespace; `required` of details is the spec's message_empty. */
const MESSAGES: Record<string, string> = {
  email_empty: 'errors.emailEmpty',
  wrong_email: 'errors.emailInvalid',
  issue_empty: 'errors.issueEmpty',
  topic_empty: 'errors.topicEmpty',
  message_empty: 'errors.messageEmpty',
};

export function ContactPage() {
  const { t } = useTranslation('contact');
  usePageTitle(t('title'));
  const { data: session } = useQuery(sessionQuery);
  const mailTouched = useRef(false);

  const { form, onSubmit, setField, showServerErrors, invalidCount, errorOf, ref } = useSchemaForm<ContactValues, ContactBody>({
    initialValues: { mail: '', issue: '', topic: '', details: '' },
    schema: contactBody,
    // Pattern-checked as the visitor types (spec).
    validateOnChange: ['mail'],
    // The topic appears once an issue is chosen, the details once a topic is (spec).
    shown: (path, v) => (path === 'topic' ? v.issue !== '' : path === 'details' ? v.issue !== '' && v.topic !== '' : true),
    translate: (code) => t(MESSAGES[code] ?? 'errors.messageEmpty'),
  });

  // E-mail prefilled from the logged-in user, unless the visitor already typed one.
  const userEmail = session?.user?.email;
  useEffect(() => {
    if (userEmail && !mailTouched.current) form.setFieldValue('mail', userEmail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the form object is stable in behaviour, not in identity
  }, [userEmail]);

  const mutation = useMutation({
    mutationFn: sendContact,
    onSuccess: () => {
      notifySuccess(msg('contact:sent'));
      form.setValues({ issue: '', topic: '', details: '' });
    },
    onError: (err) => {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) showServerErrors(err.fields);
      // Each failure says why, and stays until dismissed.
      let reason = msg('contact:failed.text');
      if (err instanceof ApiError && err.isRateLimited) {
        reason = err.retryAfter ? msg('contact:failed.rateLimitedWait', { count: err.retryAfter }) : msg('contact:failed.rateLimited');
      }
      notifyError(msg('contact:failed.title'), reason);
    },
  });

  const values = form.getValues();
  const topics = values.issue ? CONTACT_TOPICS[values.issue] : [];
  const mailProps = form.getInputProps('mail');
  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap="md" pt={{ md: 'md' }}>
          <ThemeIcon size={52} radius="xl" variant="light">
            <IconHeadset size={28} aria-hidden="true" />
          </ThemeIcon>
          <Title order={1} size="h2">
            {t('title')}
          </Title>
          <Text c="dimmed">{t('intro')}</Text>
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 'xl' }}>
          <form ref={ref} onSubmit={onSubmit((body) => mutation.mutate(body))} noValidate data-testid="contact-form">
            <Stack gap="md">
              <FormErrorSummary count={invalidCount} testId="contact-summary" />
              <TextInput
                type="email"
                name="mail"
                label={t('fields.mail')}
                placeholder={t('fields.mailPlaceholder')}
                autoComplete="email"
                required
                {...form.getInputProps('mail')}
                onChange={(e) => {
                  mailTouched.current = true;
                  (mailProps.onChange as (v: string) => void)(e.currentTarget.value);
                }}
              />
              <Select
                name="issue"
                label={t('fields.issue')}
                placeholder={t('fields.issuePlaceholder')}
                required
                data={CONTACT_ISSUES.map((value) => ({ value, label: t(`issues.${value}`) }))}
                value={values.issue || null}
                onChange={(v) => {
                  setField('issue', (v ?? ''));
                  setField('topic', ''); // changing the issue clears the topic
                }}
                error={errorOf('issue')}
                data-path="issue"
                data-testid="contact-issue"
              />
              {values.issue && (
                <Select
                  key={values.issue}
                  name="topic"
                  label={t('fields.topic')}
                  placeholder={t('fields.topicPlaceholder')}
                  required
                  data={topics.map((value) => ({ value, label: t(`topics.${value}`) }))}
                  value={values.topic || null}
                  onChange={(v) => setField('topic', v ?? '')}
                  error={errorOf('topic')}
                  data-path="topic"
                  data-testid="contact-topic"
                />
              )}
              {values.issue && values.topic && (
                <Textarea
                  name="details"
                  label={t('fields.details')}
                  placeholder={t('fields.detailsPlaceholder')}
                  required
                  autosize
                  minRows={5}
                  maxRows={14}
                  maxLength={5000}
                  {...form.getInputProps('details')}
                />
              )}
              <Group justify="flex-end">
                <Button type="submit" size="md" loading={mutation.isPending} data-testid="contact-submit">
                  {t('submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      </Grid.Col>
    </Grid>
  );
}
