import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { InternalAxiosRequestConfig } from 'axios';

import { http } from '../api/client';
import ReportPage from '../pages/report';
import ThemeCustomization from '../themes';
import { mockAdapter, nth, paginated, sentJson } from './helpers';

// The report page's own calls answered at the HTTP edge: two calls listed, no totals or views.
const CALLS = [
  {
    id: 11,
    caller: '+447700900123',
    did: '+442071838750',
    started_at: '2026-11-20T10:00:00Z',
    disposition: 'ANSWERED'
  },
  { id: 12, caller: '+447700900124', did: '+442071838750', started_at: '2026-11-20T09:00:00Z', disposition: 'BUSY' }
];
const ok = (data: unknown) => ({ data: { message: 'OK', data } });

function answer(config: InternalAxiosRequestConfig) {
  const path = new URL(config.url ?? '', 'http://portal.test').pathname;
  if (path === '/api/report') return ok(paginated(CALLS, { perpage: 25 }));
  if (path === '/api/block/cdr') return ok({ created: 1, already_blocked: 0 });
  if (path === '/api/report/views') return ok([]);
  return { status: 404, data: { message: 'Not here.' } };
}

function renderReport(role: number) {
  localStorage.setItem('token', 't');
  localStorage.setItem('user', JSON.stringify({ user_id: 2, role, name: 'Carla', timezone: 'UTC' }));
  const router = createMemoryRouter([{ path: '/report', element: <ReportPage /> }], { initialEntries: ['/report'] });
  render(
    <ThemeCustomization>
      <RouterProvider router={router} />
    </ThemeCustomization>
  );
}

describe('the report: block callers', () => {
  const adapter = http.defaults.adapter;
  beforeEach(() => localStorage.clear());
  afterEach(() => {
    http.defaults.adapter = adapter;
  });

  it('blocks the ticked calls’ callers after the confirm step, then clears the ticks', async () => {
    const sent = mockAdapter(http, answer);
    renderReport(2);
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2));
    const button = screen.getByTestId('report-block-callers');
    expect(button).toHaveProperty('disabled', true);

    // A tick does not open the call (the row's click does).
    const second = nth(screen.getAllByTestId('report-row'), 1);
    fireEvent.click(within(second).getByRole('checkbox'));
    expect(screen.queryByTestId('call-detail')).toBeNull();
    expect(button.textContent).toBe('Block callers (1 selected)');

    fireEvent.click(button);
    fireEvent.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(screen.getByTestId('report-notice').textContent).toBe('1 caller blocked.'));
    const blocks = sent.filter((c) => c.url === '/api/block/cdr');
    expect(blocks).toHaveLength(1);
    expect(sentJson(nth(blocks))).toEqual({ call_ids: [12] });
    expect(screen.getByTestId('report-block-callers')).toHaveProperty('disabled', true);
  });

  it('gives a buyer neither tick boxes nor the action', async () => {
    mockAdapter(http, answer);
    renderReport(3);
    await waitFor(() => expect(screen.getAllByTestId('report-row')).toHaveLength(2));
    expect(screen.queryByTestId('report-block-callers')).toBeNull();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });
});
