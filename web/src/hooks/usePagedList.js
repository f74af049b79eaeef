import { useCallback, useEffect, useState } from 'react';
import { countLabel } from '../utils/report';

/**
 * A paginated list screen: page (from 0), rows per page, a search box debounced into the spec's
 * `params`, filters, and `fetchPage({page, perpage, params, ...filters})` (its `data` and `total`)
 * re-run when any of them changes. `filterBy(filters)` starts again from the first page;
 * `reload()` fetches the current page again. A call report's page answers `next_after`: the next
 * page is asked "after" that call (keyset, as cheap at page 1,000 as at page 2), and its total may
 * be an estimate (`total_estimated`).
 */
export default function usePagedList(
  fetchPage,
  { perpage: initialPerpage = 10, failure = 'The list could not be loaded.' } = {}
) {
  const [page, setPage] = useState(0);
  const [perpage, setPerpage] = useState(initialPerpage);
  const [search, setSearch] = useState('');
  const [params, setParams] = useState('');
  const [rows, setRows] = useState([]);
  const [total, setTotal] = useState(0);
  const [estimated, setEstimated] = useState(false);
  const [nextAfter, setNextAfter] = useState(null);
  const [after, setAfter] = useState(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState('');
  const [filters, setFilters] = useState({});

  useEffect(() => {
    const t = setTimeout(() => {
      setPage(0);
      setAfter(null);
      setParams(search.trim());
    }, 300);
    return () => clearTimeout(t);
  }, [search]);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const data = await fetchPage({ page: page + 1, perpage, params, ...filters, ...(after ? { after } : {}) });
      setRows(Array.isArray(data?.data) ? data.data : []);
      setTotal(Number(data?.total ?? 0));
      setEstimated(Boolean(data?.total_estimated));
      setNextAfter(data?.next_after ?? null);
      setError('');
    } catch (err) {
      setError(err?.message || failure);
      setRows([]);
      setTotal(0);
      setEstimated(false);
      setNextAfter(null);
    } finally {
      setLoading(false);
    }
  }, [fetchPage, page, perpage, params, filters, after, failure]);

  useEffect(() => {
    reload();
  }, [reload]);

  const filterBy = (next) => {
    setError('');
    setPage(0);
    setAfter(null);
    setFilters(next);
  };

  const pagination = {
    component: 'div',
    count: total,
    page: total === 0 ? 0 : Math.min(page, Math.max(0, Math.ceil(total / perpage) - 1)),
    onPageChange: (_, p) => {
      setAfter(p === page + 1 ? nextAfter : null);
      setPage(p);
    },
    rowsPerPage: perpage,
    onRowsPerPageChange: (e) => {
      setPerpage(Number(e.target.value));
      setPage(0);
      setAfter(null);
    },
    rowsPerPageOptions: [10, 25, 50],
    labelDisplayedRows: ({ from, to, count }) => `${from}–${to} of ${countLabel(count, estimated)}`
  };

  return { rows, total, estimated, loading, error, setError, search, setSearch, filters, filterBy, reload, pagination };
}
