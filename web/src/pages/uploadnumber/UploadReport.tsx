// The report of one upload: the counts, then the skipped lines, each with why (imported lines are
// only counted).
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';

import type { UploadReport as UploadReportOut } from '../../client';
import MainCard from '../../components/MainCard';
import { EmptyRow } from '../../components/ListParts';

export default function UploadReport({ report }: { report: UploadReportOut }) {
  const [page, setPage] = useState(0);
  const [perpage, setPerpage] = useState(10);
  const lines = report.lines ?? [];
  const shown = lines.slice(page * perpage, (page + 1) * perpage);
  return (
    <MainCard content={false} title={`Report of ${report.filename}`} sx={{ mb: 2.5 }}>
      <Alert severity={report.skipped ? 'warning' : 'success'} sx={{ m: 2 }} data-testid="upload-summary">
        Imported {report.imported} of {report.total} line(s); {report.skipped} skipped.
      </Alert>
      <Table size="small" data-testid="report-table">
        <TableHead>
          <TableRow>
            <TableCell>Line</TableCell>
            <TableCell>Number</TableCell>
            <TableCell>Result</TableCell>
            <TableCell>Why</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {shown.map((l) => (
            <TableRow key={l.line} data-testid="report-line" data-line={l.line}>
              <TableCell>{l.line}</TableCell>
              <TableCell>{l.number}</TableCell>
              <TableCell>
                <Chip size="small" variant="light" color="error" label={l.status} />
              </TableCell>
              <TableCell>{l.reason ?? ''}</TableCell>
            </TableRow>
          ))}
          {lines.length === 0 && <EmptyRow colSpan={4} text="No line was skipped." />}
        </TableBody>
      </Table>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <TablePagination
          component="div"
          count={lines.length}
          page={page}
          onPageChange={(_, p) => setPage(p)}
          rowsPerPage={perpage}
          onRowsPerPageChange={(e) => {
            setPerpage(Number(e.target.value));
            setPage(0);
          }}
          rowsPerPageOptions={[10, 25, 50, 100]}
        />
      </Stack>
    </MainCard>
  );
}
