import { Group, Menu, UnstyledButton } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { MenuGroup } from '../lib/access.ts';
import classes from './NavBar.module.css';

/**
 * One dropdown of the desktop navigation bar; lazily loaded by NavBar (keeps Menu out of the first load).
 * The dropdown renders in place, inside the header's navigation landmark, not in a portal at the end of <body>
 * (where it sat outside every landmark: axe `region`). The header has no overflow to clip it, and its sticky
 * stacking context (z-index 200) keeps it above the page.
 */
export default function DesktopMenu({ menu }: { menu: MenuGroup }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = menu.items.some((i) => i.to === pathname);
  return (
    <Menu trigger="click" closeOnItemClick withinPortal={false} position="bottom-start" shadow="md" radius="md" offset={6}>
      <Menu.Target>
        <UnstyledButton className={classes.link} data-active={active || undefined} data-testid={`menu-${menu.id}`}>
          <Group gap={4} wrap="nowrap">
            <span>{t(menu.labelKey)}</span>
            <IconChevronDown size={14} aria-hidden="true" />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        {menu.items.map((item) => (
          <Menu.Item key={item.to} component={Link} to={item.to} data-active={item.to === pathname || undefined}>
            {t(item.labelKey)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
