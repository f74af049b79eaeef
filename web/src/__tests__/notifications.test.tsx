import { describe, expect, it, vi } from 'vitest';
import type { UIEvent } from 'react';
import { act, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import useNotifications, { shouldLoadMore } from '../hooks/useNotifications';
import type { PageDataNotificationOut } from '../client';
import { paginated } from './helpers';

const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: from + i,
    kind: 'info',
    text: `n${from + i}`,
    created_at: '2026-11-25T10:00:00Z',
    read_at: null
  }));
/**
 * A real list wired to the hook's onScroll, as the dropdown's is; `scroll(top)` scrolls it and
 * resolves once the load the scroll started (if any) is done.
 */
function scrollableList(onScroll: () => (event: UIEvent<HTMLElement>) => unknown) {
  let pending: unknown;
  render(<div data-testid="scrolled-list" onScroll={(event) => (pending = onScroll()(event))} />);
  const list = screen.getByTestId('scrolled-list');
  return async (scrollTop: number, scrollHeight = 1000, clientHeight = 300): Promise<void> => {
    Object.defineProperties(list, {
      scrollTop: { value: scrollTop, configurable: true },
      scrollHeight: { value: scrollHeight, configurable: true },
      clientHeight: { value: clientHeight, configurable: true }
    });
    pending = undefined;
    fireEvent.scroll(list);
    await pending;
  };
}

describe('shouldLoadMore (50 px threshold)', () => {
  const base = { scrollHeight: 1000, clientHeight: 300, loaded: 10, total: 25, loading: false };
  it('loads within 50 px of the bottom', () => {
    expect(shouldLoadMore({ ...base, scrollTop: 700 })).toBe(true); // 0 px left
    expect(shouldLoadMore({ ...base, scrollTop: 650 })).toBe(true); // 50 px left
    expect(shouldLoadMore({ ...base, scrollTop: 649 })).toBe(false); // 51 px left
  });
  it('stops when everything is loaded or a load is running', () => {
    expect(shouldLoadMore({ ...base, scrollTop: 700, loaded: 25 })).toBe(false);
    expect(shouldLoadMore({ ...base, scrollTop: 700, loading: true })).toBe(false);
  });
});

describe('useNotifications paging', () => {
  it('loads page 1 with 10 per page when opened, then the next page on scroll', async () => {
    const fetchPage = vi.fn(async (page: number, perpage: number) =>
      paginated(rows((page - 1) * perpage + 1, Math.min(perpage, 23 - (page - 1) * perpage)), {
        total: 23,
        page,
        perpage
      })
    );
    const { result } = renderHook(() => useNotifications({ fetchPage }));
    const scroll = scrollableList(() => result.current.onScroll);
    await act(() => result.current.open());
    expect(fetchPage).toHaveBeenLastCalledWith(1, 10);
    expect(result.current.items).toHaveLength(10);
    expect(result.current.total).toBe(23);

    // not near the bottom: nothing happens
    await act(() => scroll(100));
    expect(fetchPage).toHaveBeenCalledTimes(1);

    await act(() => scroll(690));
    expect(fetchPage).toHaveBeenLastCalledWith(2, 10);
    expect(result.current.items).toHaveLength(20);

    await act(() => scroll(700));
    expect(fetchPage).toHaveBeenLastCalledWith(3, 10);
    expect(result.current.items).toHaveLength(23);

    // loaded == total: no more calls
    await act(() => scroll(700));
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('re-opening starts again from page 1', async () => {
    const fetchPage = vi.fn(async (page: number) => paginated(rows(page * 100, 10), { total: 30, page }));
    const { result } = renderHook(() => useNotifications({ fetchPage }));
    const scroll = scrollableList(() => result.current.onScroll);
    await act(() => result.current.open());
    await act(() => scroll(700));
    expect(result.current.items).toHaveLength(20);
    await act(() => result.current.open());
    expect(fetchPage).toHaveBeenLastCalledWith(1, 10);
    expect(result.current.items).toHaveLength(10);
  });

  it('shows loading while fetching', async () => {
    let resolve: (page: PageDataNotificationOut) => void = () => {};
    const fetchPage = vi.fn(() => new Promise<PageDataNotificationOut>((r) => (resolve = r)));
    const { result } = renderHook(() => useNotifications({ fetchPage }));
    act(() => {
      result.current.open();
    });
    expect(result.current.loading).toBe(true);
    await act(async () => resolve(paginated([], { total: 0 })));
    expect(result.current.loading).toBe(false);
    expect(result.current.items).toEqual([]);
  });

  it('a failed fetch is only logged', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchPage = vi.fn(async () => {
      throw { message: 'down', code: 500 };
    });
    const { result } = renderHook(() => useNotifications({ fetchPage }));
    await act(() => result.current.open());
    await waitFor(() => expect(result.current.loading).toBe(false));
    expect(result.current.items).toEqual([]);
    expect(error).toHaveBeenCalled();
  });
});
