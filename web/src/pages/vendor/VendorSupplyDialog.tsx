// What a vendor supplies: its numbers (and who has each) and its trunks, a page of each.
// Mounted while shown, so each opening reads them afresh.
import { useCallback, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

import { EmptyRow } from '../../components/ListParts';
import { call } from '../../api/client';
import { numbersDetails, trunksDetails, type NumberRow, type TrunkOut } from '../../client';
import usePagedList, { type PageQuery, type PagedList } from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { statusColor } from '../../utils/status';

interface SupplyTableProps<Row extends { id: number }> {
  name: string;
  title: string;
  list: PagedList<Row>;
  columns: string[];
  cells: (row: Row) => ReactNode[];
}

function SupplyTable<Row extends { id: number }>({ name, title, list, columns, cells }: SupplyTableProps<Row>) {
  const { rows, total, error, loading, pagination } = list;
  return (
    <>
      <Typography variant="subtitle1" sx={{ mt: 1 }} data-testid={`${name}-title`}>
        {title} ({total})
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      <Table size="small" data-testid={`${name}-table`}>
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c}>{c}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.id} data-testid={`${name}-row`}>
              {cells(row).map((cell, i) => (
                <TableCell key={columns[i]}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
          {!loading && !error && rows.length === 0 && (
            <EmptyRow colSpan={columns.length} text={`No ${title.toLowerCase()} from this vendor.`} />
          )}
        </TableBody>
      </Table>
      {total > 10 && <TablePagination {...pagination} />}
    </>
  );
}

const status = (s: string) => <Chip size="small" variant="light" color={statusColor(s)} label={s} />;

interface VendorSupplyDialogProps {
  vendor: { id: number; name: string };
  onClose: () => void;
}

export default function VendorSupplyDialog({ vendor, onClose }: VendorSupplyDialogProps) {
  const numbersPage = useCallback(
    ({ page, perpage }: PageQuery) => call(numbersDetails({ query: { page, perpage, vendor_id: vendor.id } })),
    [vendor.id]
  );
  const trunksPage = useCallback(
    ({ page, perpage }: PageQuery) => call(trunksDetails({ query: { page, perpage, vendor_id: vendor.id } })),
    [vendor.id]
  );
  const numbers = usePagedList<NumberRow>(numbersPage, { failure: 'The numbers could not be loaded.' });
  const trunks = usePagedList<TrunkOut>(trunksPage, { failure: 'The trunks could not be loaded.' });
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="supply-dialog">
      <DialogTitle>What {vendor.name} supplies</DialogTitle>
      <DialogContent dividers>
        <SupplyTable
          name="supply-number"
          title="Numbers"
          list={numbers}
          columns={['Number', 'Customer', 'Monthly fee', 'Status']}
          cells={(n) => [n.number, n.customer_name ?? 'Pool', formatBalance(n.monthly_fee), status(n.status)]}
        />
        <SupplyTable
          name="supply-trunk"
          title="Trunks"
          list={trunks}
          columns={['Name', 'Direction', 'Address', 'Status']}
          cells={(t) => [t.name, t.direction, `${t.transport}:${t.host}:${t.port}`, status(t.status)]}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
