import { useEffect, useState, type FormEvent } from 'react';
import { Button, Grid, Group, Paper, Select, Stack, Text, TextInput, Textarea, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconHeadset, IconX } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTACT_ISSUES, CONTACT_TOPICS, EMAIL_PATTERN, type ContactIssue } from '@portal/contracts';
import { api, ApiError } from '../../lib/api.ts';
import { sessionQuery } from '../../lib/auth.ts';
import { TOAST_MS } from '../../app/theme.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';

type FieldErrors = Partial<Record<'mail' | 'issue' | 'topic' | 'details', string>>;
const FIELD_CODE_KEYS: Record<string, string> = {
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
  const [mail, setMail] = useState('');
  const [mailTouched, setMailTouched] = useState(false);
  const [issue, setIssue] = useState<ContactIssue | null>(null);
  const [topic, setTopic] = useState<string | null>(null);
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});

  // E-mail prefilled from the logged-in user, unless the visitor already typed one.
  const userEmail = session?.user?.email;
  useEffect(() => {
    if (userEmail && !mailTouched) setMail(userEmail);
  }, [userEmail, mailTouched]);

  const mutation = useMutation({
    mutationFn: (body: { mail: string; issue: string; topic: string; details: string }) =>
      api<{ success: true; message: string }>('/contact', { method: 'POST', body }),
    onMutate: () => {
      notifications.show({
        id: 'contact-send',
        loading: true,
        title: t('sending.title'),
        message: t('sending.text'),
        autoClose: false,
        withCloseButton: false,
      });
    },
    onSuccess: () => {
      notifications.update({
        id: 'contact-send',
        loading: false,
        color: 'teal',
        title: t('sent'),
        message: '',
        icon: <IconCheck size={18} />,
        autoClose: TOAST_MS,
        withCloseButton: true,
      });
      setIssue(null);
      setTopic(null);
      setDetails('');
    },
    onError: (err) => {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        const next: FieldErrors = {};
        for (const [field, code] of Object.entries(err.fields)) {
          const key = FIELD_CODE_KEYS[code];
          if (field === 'mail' || field === 'issue' || field === 'topic' || field === 'details') next[field] = key ? t(key) : code;
        }
        setErrors(next);
      }
      notifications.update({
        id: 'contact-send',
        loading: false,
        color: 'red',
        title: t('failed.title'),
        message: t('failed.text'),
        icon: <IconX size={18} />,
        autoClose: TOAST_MS,
        withCloseButton: true,
      });
    },
  });

  const checkMail = (value: string) => {
    setErrors((e) => ({ ...e, mail: value && !EMAIL_PATTERN.test(value.trim()) ? t('errors.emailInvalid') : undefined }));
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next: FieldErrors = {};
    if (!mail.trim()) next.mail = t('errors.emailEmpty');
    else if (!EMAIL_PATTERN.test(mail.trim())) next.mail = t('errors.emailInvalid');
    if (!issue) next.issue = t('errors.issueEmpty');
    if (!topic) next.topic = t('errors.topicEmpty');
    if (!details.trim()) next.details = t('errors.messageEmpty');
    setErrors(next);
    if (Object.keys(next).length > 0 || !issue || !topic) return;
    mutation.mutate({ mail: mail.trim(), issue, topic, details: details.trim() });
  };

  const topics = issue ? CONTACT_TOPICS[issue] : [];
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
          <form onSubmit={onSubmit} noValidate>
            <Stack gap="md">
              <TextInput
                type="email"
                name="mail"
                label={t('fields.mail')}
                placeholder={t('fields.mailPlaceholder')}
                autoComplete="email"
                required
                value={mail}
                onChange={(e) => {
                  setMailTouched(true);
                  setMail(e.currentTarget.value);
                }}
                onKeyUp={(e) => checkMail(e.currentTarget.value)}
                error={errors.mail}
                errorProps={{ role: 'alert' }}
              />
              <Select
                name="issue"
                label={t('fields.issue')}
                placeholder={t('fields.issuePlaceholder')}
                required
                data={CONTACT_ISSUES.map((value) => ({ value, label: t(`issues.${value}`) }))}
                value={issue}
                onChange={(v) => {
                  setIssue(v ?? null);
                  setTopic(null); // changing the issue clears the topic
                  setErrors((e) => ({ ...e, issue: undefined, topic: undefined }));
                }}
                error={errors.issue}
                data-testid="contact-issue"
              />
              {issue && (
                <Select
                  key={issue}
                  name="topic"
                  label={t('fields.topic')}
                  placeholder={t('fields.topicPlaceholder')}
                  required
                  data={topics.map((value) => ({ value, label: t(`topics.${value}`) }))}
                  value={topic}
                  onChange={(v) => {
                    setTopic(v);
                    setErrors((e) => ({ ...e, topic: undefined }));
                  }}
                  error={errors.topic}
                  data-testid="contact-topic"
                />
              )}
              {issue && topic && (
                <Textarea
                  name="details"
                  label={t('fields.details')}
                  placeholder={t('fields.detailsPlaceholder')}
                  required
                  autosize
                  minRows={5}
                  maxRows={14}
                  maxLength={5000}
                  value={details}
                  onChange={(e) => setDetails(e.currentTarget.value)}
                  error={errors.details}
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
