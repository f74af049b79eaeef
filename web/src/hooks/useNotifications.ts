import { useCallback, useRef, useState, type UIEvent } from 'react';
import { call } from '../api/client';
import { notificationsListing, type NotificationOut, type PageDataNotificationOut } from '../client';
import { NOTIFICATION_PAGE_SIZE, NOTIFICATION_SCROLL_THRESHOLD } from '../config';

interface ScrollState {
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  loaded: number;
  total: number;
  loading: boolean;
  threshold?: number;
}

/** Load the next page when the list is within 50 px of its bottom and more rows exist (spec §4). */
export function shouldLoadMore({
  scrollTop,
  scrollHeight,
  clientHeight,
  loaded,
  total,
  loading,
  threshold = NOTIFICATION_SCROLL_THRESHOLD
}: ScrollState): boolean {
  if (loading) return false;
  if (!(loaded < total)) return false;
  return scrollHeight - scrollTop - clientHeight <= threshold;
}

type FetchNotifications = (page: number, perpage: number) => Promise<PageDataNotificationOut>;

const fetchNotifications: FetchNotifications = (page, perpage) =>
  call(notificationsListing({ query: { page, perpage } }));

/** Notification list paging: 10 per page, first page when the dropdown opens. */
export default function useNotifications({
  perPage = NOTIFICATION_PAGE_SIZE,
  fetchPage = fetchNotifications
}: { perPage?: number; fetchPage?: FetchNotifications } = {}) {
  const [items, setItems] = useState<NotificationOut[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(0);
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const generation = useRef(0);

  const load = useCallback(
    async (pageToLoad: number, reset: boolean) => {
      if (busy.current && !reset) return;
      busy.current = true;
      const gen = reset ? ++generation.current : generation.current;
      setLoading(true);
      try {
        const data = await fetchPage(pageToLoad, perPage);
        if (gen !== generation.current) return;
        const rows = Array.isArray(data?.data) ? data.data : [];
        setItems((prev) => (reset ? rows : [...prev, ...rows]));
        setTotal(Number(data?.total ?? rows.length) || 0);
        setPage(Number(data?.current_page ?? pageToLoad) || pageToLoad);
      } catch (err) {
        // a failed notification fetch is only logged (spec §8)
        console.error('Notifications failed', err);
      } finally {
        if (gen === generation.current) {
          busy.current = false;
          setLoading(false);
        }
      }
    },
    [fetchPage, perPage]
  );

  const open = useCallback(() => {
    setItems([]);
    setTotal(0);
    setPage(0);
    return load(1, true);
  }, [load]);

  const onScroll = useCallback(
    (event: UIEvent<HTMLElement>) => {
      const el = event.currentTarget;
      if (
        shouldLoadMore({
          scrollTop: el.scrollTop,
          scrollHeight: el.scrollHeight,
          clientHeight: el.clientHeight,
          loaded: items.length,
          total,
          loading: busy.current
        })
      ) {
        return load(page + 1, false);
      }
      return undefined;
    },
    [items.length, total, page, load]
  );

  return { items, total, page, loading, open, onScroll, loadMore: () => load(page + 1, false) };
}
