// The card of a list screen: its title and tools, a progress bar (and skeleton rows) while loading, the error or
// success message, the table with its header row (and a row saying when it is empty) and the
// pagination. The screen renders the body rows as children.
import type { ReactNode } from 'react';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';

import { EmptyRow, ListMessages, SkeletonRows } from './ListParts';
import MainCard from './MainCard';
import type { PagedList } from '../hooks/usePagedList';

/** A header cell: its label, or [label, align]; a falsy one is left out. */
export type Column = string | readonly [string, 'left' | 'right' | 'center'] | false | null | undefined;

interface ListCardProps<Row> {
  name: string;
  title?: ReactNode;
  secondary?: ReactNode;
  list: Pick<PagedList<Row>, 'loading' | 'error' | 'setError' | 'rows' | 'pagination'>;
  notice?: string;
  setNotice?: (notice: string) => void;
  columns: readonly Column[];
  emptyText: ReactNode;
  children?: ReactNode;
}

/**
 * `list` is usePagedList's result, `notice`/`setNotice` the success message, `columns` the header
 * cells as labels or [label, align] (falsy ones left out); test ids `{name}-table` and the
 * ListMessages ones.
 */
export default function ListCard<Row>({
  name,
  title,
  secondary,
  list,
  notice,
  setNotice,
  columns,
  emptyText,
  children
}: ListCardProps<Row>) {
  const { loading, error, setError, rows, pagination } = list;
  const shown = columns
    .filter((c): c is Exclude<Column, false | null | undefined> => Boolean(c))
    .map((c): readonly [string, ('left' | 'right' | 'center')?] => (typeof c === 'string' ? [c] : c));
  return (
    <MainCard content={false} title={title} secondary={secondary}>
      {loading && <LinearProgress sx={{ borderRadius: 0 }} />}
      <ListMessages
        name={name}
        error={error}
        notice={notice ?? ''}
        onCloseError={() => setError('')}
        onCloseNotice={() => setNotice?.('')}
      />
      <TableContainer>
        <Table size="small" data-testid={`${name}-table`}>
          <TableHead>
            <TableRow>
              {shown.map(([label, align]) => (
                <TableCell key={label} align={align}>
                  {label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {children}
            {loading && rows.length === 0 && <SkeletonRows columns={shown.length} />}
            {!loading && rows.length === 0 && !error && <EmptyRow colSpan={shown.length} text={emptyText} />}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination {...pagination} />
    </MainCard>
  );
}
