// The shape of the sidebar menus (spec §2) and the helper that writes one link.
import type { ComponentType, CSSProperties } from 'react';
import type { ChipProps } from '@mui/material/Chip';

/** A link of the sidebar (spec §2). */
export interface MenuItem {
  id: string;
  title: string;
  /** 'item' or 'collapse'; anything else renders the group's error line (menu-items childKind). */
  type: string;
  url?: string;
  icon?: ComponentType<{ style?: CSSProperties }>;
  /** Opens in a new tab. */
  target?: boolean;
  external?: boolean;
  disabled?: boolean;
  /** Shown in the error colour (e.g. a warning entry). */
  highlight?: boolean;
  chip?: Pick<ChipProps, 'color' | 'variant' | 'size' | 'label'> & { avatar?: string };
  /** A collapse entry's own items (not rendered: a placeholder shows). */
  children?: MenuItem[];
}

export interface MenuGroup {
  id: string;
  title?: string;
  /** 'group'; anything else renders the navigation's error line. */
  type: string;
  children?: MenuItem[];
}

export interface Menu {
  items: MenuGroup[];
}

/** One sidebar link: `id`, its title, path and icon. */
export const menuItem = (id: string, title: string, url: string, icon: MenuItem['icon']): MenuItem => ({
  id,
  title,
  type: 'item',
  url,
  icon
});
