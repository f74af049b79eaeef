import { describe, expect, it } from 'vitest';
import {
  type Menu,
  adminMenu,
  chooseMenu,
  childKind,
  isItemSelected,
  pathStartsWith,
  showSidebar,
  userMenu
} from '../menu-items';

const flat = (menu: Menu) => menu.items.map((g) => [g.title, (g.children ?? []).map((c) => [c.url, c.title])] as const);
const items = (menu: Menu) => menu.items.flatMap((g) => g.children ?? []);

describe('menu choice (spec §2)', () => {
  it('role 1 gets the admin menu', () => {
    expect(chooseMenu({ role: 1 })).toBe(adminMenu);
    expect(chooseMenu({ role: '1' })).toBe(adminMenu);
  });

  it('every other role gets the user menu', () => {
    for (const role of [2, 3, 4, 7, '2']) expect(chooseMenu({ role })).toBe(userMenu);
    expect(chooseMenu(null)).toBe(userMenu);
  });

  it('hides the sidebar for buyers (role 3) only', () => {
    expect(showSidebar({ role: 3 })).toBe(false);
    expect(showSidebar({ role: 1 })).toBe(true);
    expect(showSidebar({ role: 2 })).toBe(true);
  });

  it('admin menu matches the spec table', () => {
    expect(flat(adminMenu)).toEqual([
      [
        'Main',
        [
          ['/dashboard', 'Dashboard'],
          ['/customer', 'User'],
          ['/buyer', 'Buyer'],
          ['/manage-trunk', 'Trunk']
        ]
      ],
      [
        'Feature',
        [
          ['/campaign', 'Campaign'],
          ['/target', 'Target'],
          ['/ivr', 'IVR Auth']
        ]
      ],
      [
        'Number',
        [
          ['/manage-number', 'Number'],
          ['/block-number', 'Block Number']
        ]
      ],
      [
        'Report',
        [
          ['/report', 'Report'],
          ['/live-calls', 'Live Calls']
        ]
      ],
      [
        'Billing',
        [
          ['/tariff', 'Tariff'],
          ['/rate-card', 'Rate Card'],
          ['/topup', 'Topup'],
          ['/wallet', 'Wallet'],
          ['/invoice', 'Invoice']
        ]
      ]
    ]);
  });

  it('user menu matches the spec table (no Number group)', () => {
    expect(flat(userMenu).map(([g, items]) => [g, items.map(([u]) => u)])).toEqual([
      ['Main', ['/dashboard', '/block-number', '/number', '/buyer']],
      ['Feature', ['/campaign', '/target', '/user_ivr']],
      ['Report', ['/live-calls', '/report']],
      ['Billing', ['/wallet', '/invoice']]
    ]);
    expect(items(userMenu).find((c) => c.url === '/user_ivr')?.title).toBe('IVR Auth');
  });

  it('every item has id, title, url, icon and type item', () => {
    for (const menu of [adminMenu, userMenu]) {
      for (const item of items(menu)) {
        expect(item).toMatchObject({ type: 'item' });
        expect(item.id && item.title && item.url && item.icon).toBeTruthy();
      }
    }
  });
});

describe('item selection', () => {
  const report = { id: 'report', url: '/report', type: 'item' };
  const buyer = { id: 'buyer', url: '/buyer', type: 'item' };

  it('selects by path prefix', () => {
    expect(isItemSelected(report, '/report', '')).toBe(true);
    expect(isItemSelected(report, '/report/42', '')).toBe(true);
    expect(isItemSelected(report, '/dashboard', '')).toBe(false);
  });

  it('matches whole path segments', () => {
    expect(pathStartsWith('/buyer-target', '/buyer')).toBe(false);
    expect(pathStartsWith('/buyercdr', '/buyer')).toBe(false);
    expect(isItemSelected(buyer, '/buyer', '')).toBe(true);
  });

  it('selects the remembered opened item', () => {
    expect(isItemSelected(report, '/', 'report')).toBe(true);
    expect(isItemSelected(report, '/', 'dashboard')).toBe(false);
  });

  it('classifies children: item, collapse, unknown', () => {
    expect(childKind({ type: 'item' })).toBe('item');
    expect(childKind({ type: 'collapse' })).toBe('collapse');
    expect(childKind({ type: 'group' })).toBe('unknown');
    expect(childKind({})).toBe('unknown');
  });
});
