import type { ReactElement } from 'react';
import { describe, expect, it, beforeEach } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { DashboardOutlined, StopOutlined } from '@ant-design/icons';

import ThemeCustomization, { buildTheme } from '../themes';
import NavGroup from '../layout/MainLayout/Drawer/DrawerContent/Navigation/NavGroup';
import Navigation from '../layout/MainLayout/Drawer/DrawerContent/Navigation';
import { handlerActiveItem, resetMenuMaster } from '../store/menu';
import { type MenuGroup, adminMenu } from '../menu-items';

const group: MenuGroup = {
  id: 'group-test',
  title: 'Main',
  type: 'group',
  children: [
    { id: 'dashboard', title: 'Dashboard', type: 'item', url: '/dashboard', icon: DashboardOutlined },
    { id: 'docs', title: 'Docs', type: 'item', url: 'https://docs.example.com/', external: true },
    { id: 'help', title: 'Help', type: 'item', url: '/help', target: true },
    { id: 'danger', title: 'Danger', type: 'item', url: '/danger', highlight: true, icon: StopOutlined },
    { id: 'off', title: 'Off', type: 'item', url: '/off', disabled: true },
    {
      id: 'new',
      title: 'New',
      type: 'item',
      url: '/new',
      chip: { color: 'primary', variant: 'light', size: 'small', label: 'beta' }
    },
    { id: 'nested', title: 'Nested', type: 'collapse', children: [] },
    { id: 'weird', title: 'Weird', type: 'something' }
  ]
};

function renderAt(path: string, ui: ReactElement) {
  return render(
    <ThemeCustomization>
      <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
    </ThemeCustomization>
  );
}

describe('navigation items', () => {
  beforeEach(() => resetMenuMaster());

  it('renders internal links, external plain links and new-tab targets', () => {
    renderAt('/dashboard', <NavGroup group={group} open />);
    expect(screen.getByTestId('nav-item-dashboard').getAttribute('href')).toBe('/dashboard');
    const docs = screen.getByTestId('nav-item-docs');
    expect(docs.tagName).toBe('A');
    expect(docs.getAttribute('href')).toBe('https://docs.example.com/');
    expect(docs.getAttribute('target')).toBe('_self');
    const help = screen.getByTestId('nav-item-help');
    expect(help.getAttribute('target')).toBe('_blank');
    expect(help.getAttribute('rel')).toContain('noopener');
  });

  it('shows the collapse placeholder and the unknown-type message in the error colour', () => {
    renderAt('/dashboard', <NavGroup group={group} open />);
    expect(screen.getByText('collapse')).toBeTruthy();
    const unknown = screen.getByText('Group Collapse or Items');
    const error = buildTheme('dark').palette.error.main;
    const toRgb = (hex: string): string =>
      `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;
    expect(getComputedStyle(unknown).color).toBe(toRgb(error));
  });

  it('highlight items are red, disabled items disabled, chips shown', () => {
    renderAt('/dashboard', <NavGroup group={group} open />);
    const error = buildTheme('dark').palette.error.main;
    const danger = within(screen.getByTestId('nav-item-danger')).getByText('Danger');
    const toRgb = (hex: string): string =>
      `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;
    expect(getComputedStyle(danger).color).toBe(toRgb(error));
    expect(screen.getByTestId('nav-item-off').className).toContain('Mui-disabled');
    expect(screen.getByText('beta')).toBeTruthy();
  });

  it('selects the item whose url starts the path', () => {
    renderAt('/danger/12', <NavGroup group={group} open />);
    expect(screen.getByTestId('nav-item-danger').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('nav-item-dashboard').getAttribute('aria-current')).toBeNull();
  });

  it('selects the remembered opened item', () => {
    handlerActiveItem('help');
    renderAt('/', <NavGroup group={group} open />);
    expect(screen.getByTestId('nav-item-help').getAttribute('aria-current')).toBe('page');
  });

  it('collapsed: icons only, no titles, chips or group titles', () => {
    renderAt('/dashboard', <Navigation menu={adminMenu} open={false} />);
    expect(screen.queryByTestId('nav-group-title')).toBeNull();
    expect(screen.queryByText('Dashboard')).toBeNull();
    expect(screen.getByTestId('nav-item-dashboard').querySelector('svg')).toBeTruthy();
    expect(screen.getByLabelText('Dashboard')).toBeTruthy();
  });

  it('open: group titles of the admin menu', () => {
    renderAt('/dashboard', <Navigation menu={adminMenu} open />);
    expect(screen.getAllByTestId('nav-group-title').map((e) => e.textContent)).toEqual([
      'Main',
      'Feature',
      'Number',
      'Report',
      'Billing'
    ]);
  });
});
