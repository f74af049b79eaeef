import { useCallback, useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { countLabel } from '../utils/report';
import { failureMessage } from './apiFailure';

/** What a list asks for: the page (from 1), its size, the search box, and (call reports) a keyset. */
export interface PageQuery {
  page: number;
  perpage: number;
  params: string;
  after?: number;
}

/** The part of the API's page (PageData[...]) a list reads. */
export interface Page<Row> {
  data: Row[];
  total: number;
  total_estimated?: boolean;
  next_after?: number | null;
}

export type FetchPage<Row, Filters extends object> = (query: PageQuery & Partial<Filters>) => Promise<Page<Row>>;

/**
 * A catalogue list's query: page, size and search as asked, and only the filters that are set
 * ('' is a select's "All"; null or undefined unset).
 */
export function listQuery<Query extends PageQuery>(query: Query): Query {
  return Object.fromEntries(
    Object.entries(query).filter(
      ([key, value]) => key === 'params' || (value !== '' && value !== null && value !== undefined)
    )
  ) as Query; // the same object less some unset optional filters
}

/**
 * A paginated list screen: page (from 0), rows per page, a search box debounced into the spec's
 * `params`, filters, and `fetchPage({page, perpage, params, ...filters})` (its `data` and `total`)
 * re-run when any of them changes. `filterBy(filters)` starts again from the first page;
 * `reload()` fetches the current page again. A call report's page answers `next_after`: the next
 * page is asked "after" that call (keyset, as cheap at page 1,000 as at page 2), and its total may
 * be an estimate (`total_estimated`).
 */
export default function usePagedList<Row, Filters extends object = object>(
  fetchPage: FetchPage<Row, Filters>,
  {
    perpage: initialPerpage = 10,
    failure = 'The list could not be loaded.'
  }: { perpage?: number; failure?: string } = {}
) {
  const [page, setPage] = useState(0);
  const [perpage, setPerpage] = useState(initialPerpage);
  const [search, setSearch] = useState('');
  const [params, setParams] = useState('');
  const [rows, setRows] = useState<Row[]>([]);
  const [total, setTotal] = useState(0);
  const [estimated, setEstimated] = useState(false);
  const [nextAfter, setNextAfter] = useState<number | null>(null);
  const [after, setAfter] = useState<number | null>(null);
  const [error, setError] = useState('');
  const [filters, setFilters] = useState<Partial<Filters>>({});
  // Bumped by reload(): the same query asked again.
  const [asked, setAsked] = useState(0);
  // The query whose answer is shown: the list is loading while it is not the one asked.
  const [answered, setAnswered] = useState<{ key: string; fetchPage: FetchPage<Row, Filters> } | null>(null);

  useEffect(() => {
    const t = setTimeout(() => {
      setPage(0);
      setAfter(null);
      setParams(search.trim());
    }, 300);
    return () => clearTimeout(t);
  }, [search]);

  const query = useMemo(
    () => ({ page: page + 1, perpage, params, ...filters, ...(after ? { after } : {}) }),
    [page, perpage, params, filters, after]
  );
  const key = JSON.stringify([query, asked]);
  const loading = answered?.key !== key || answered.fetchPage !== fetchPage;

  useEffect(() => {
    let current = true;
    fetchPage(query)
      .then((data) => {
        if (!current) return;
        setRows(Array.isArray(data?.data) ? data.data : []);
        setTotal(Number(data?.total ?? 0));
        setEstimated(Boolean(data?.total_estimated));
        setNextAfter(data?.next_after ?? null);
        setError('');
      })
      .catch((err: unknown) => {
        if (!current) return;
        setError(failureMessage(err, failure));
        setRows([]);
        setTotal(0);
        setEstimated(false);
        setNextAfter(null);
      })
      .finally(() => current && setAnswered({ key, fetchPage }));
    return () => {
      current = false;
    };
  }, [fetchPage, query, key, failure]);

  /** Fetch the current page again (after a change the screen made). */
  const reload = useCallback(() => setAsked((n) => n + 1), []);

  const filterBy = (next: Partial<Filters>) => {
    setError('');
    setPage(0);
    setAfter(null);
    setFilters(next);
  };

  const pagination = {
    component: 'div',
    count: total,
    page: total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / perpage) - 1)),
    onPageChange: (_: unknown, p: number) => {
      setAfter(p === page + 1 ? nextAfter : null);
      setPage(p);
    },
    rowsPerPage: perpage,
    onRowsPerPageChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      setPerpage(Number(e.target.value));
      setPage(0);
      setAfter(null);
    },
    rowsPerPageOptions: [10, 25, 50],
    labelDisplayedRows: ({ from, to, count }: { from: number; to: number; count: number }) =>
      `${from}–${to} of ${countLabel(count, estimated)}`
  };

  return { rows, total, estimated, loading, error, setError, search, setSearch, filters, filterBy, reload, pagination };
}

export type PagedList<Row> = ReturnType<typeof usePagedList<Row>>;

/** Every row of a paged list (500 a page), e.g. for a CSV export or the totals of a period. */
export async function fetchAll<Row, Filters extends object>(
  fetchPage: (query: Filters & { page: number; perpage: number }) => Promise<Page<Row>>,
  filters: Filters,
  { perpage = 500, limit = 200000 }: { perpage?: number; limit?: number } = {}
): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page += 1) {
    const data = await fetchPage({ ...filters, page, perpage });
    const batch = Array.isArray(data?.data) ? data.data : [];
    rows.push(...batch);
    if (batch.length < perpage || rows.length >= Number(data?.total ?? 0) || rows.length >= limit) return rows;
  }
}
