import type { ReactNode } from 'react';
import { Button, Group, Image, Modal, Stack, Text, type ModalProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface InfoModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  paragraphs: string[];
  image?: { src: string; alt: string } | undefined;
  /** Drawn after the paragraphs, in place of (or besides) an image: a figure built from markup. */
  children?: ReactNode;
  /** Wider for a figure. */
  size?: ModalProps['size'];
}

/** Title, paragraphs, optional image and OK; closes on OK, Escape or a click outside. */
export function InfoModal({ opened, onClose, title, paragraphs, image, children, size = 'lg' }: InfoModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeOnEscape closeOnClickOutside radius="lg" size={size}>
      <Stack gap="sm">
        {paragraphs.map((p, i) => (
          <Text key={i} size="sm">
            {p}
          </Text>
        ))}
        {image && <Image src={image.src} alt={image.alt} radius="md" />}
        {children}
        <Group justify="flex-end" mt="sm">
          <Button onClick={onClose} data-autofocus>
            {t('actions.ok')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
