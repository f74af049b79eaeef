// Upload numbers (admin): a CSV of numbers into the pool, with the bytes sent as a progress bar,
// the report of every line (imported, or skipped and why), a sample file, and past uploads.
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { DownloadOutlined, FileTextOutlined, UploadOutlined } from '@ant-design/icons';

import ListCard from '../../components/ListCard';
import MainCard from '../../components/MainCard';
import { SearchBox } from '../../components/ListParts';
import { PageTitle } from '../../components/PagePlaceholder';
import { call, uploadHttp } from '../../api/client';
import { numbersUpload, numbersUploads, usersDetails, type UploadReport as UploadReportOut } from '../../client';
import { failureOf } from '../../hooks/apiFailure';
import usePagedList, { type PageQuery } from '../../hooks/usePagedList';
import {
  MAX_UPLOAD_ROWS,
  SAMPLE_CSV,
  UPLOAD_COLUMNS,
  countRows,
  sentPercent,
  uploadProblem
} from '../../utils/numberUpload';
import { formatDateTime, timeColumn } from '../../utils/time';
import { getStoredUser } from '../../utils/storage';
import { firstFieldErrors } from '../../utils/validation';
import { namesById } from '../../utils/userForm';
import UploadReport from './UploadReport';

function downloadSample() {
  const url = URL.createObjectURL(new Blob([`${SAMPLE_CSV}\n`], { type: 'text/csv' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: 'numbers-sample.csv' });
  a.click();
  URL.revokeObjectURL(url);
}

/** Past CSV uploads with their counts, a page of them; `params` matches the file name. */
const fetchUploads = ({ page, perpage, params }: PageQuery) =>
  call(numbersUploads({ query: { page, perpage, params } }));

export default function UploadNumberPage() {
  const timeZone = getStoredUser()?.timezone;
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [rows, setRows] = useState(0);
  const [problem, setProblem] = useState('');
  const [sent, setSent] = useState<number | null>(null); // percent while uploading, null otherwise
  const [report, setReport] = useState<UploadReportOut | null>(null);
  const [admins, setAdmins] = useState<Record<number, string>>({});
  const past = usePagedList(fetchUploads, { failure: 'Past uploads could not be loaded.' });

  useEffect(() => {
    call(usersDetails({ query: { page: 1, perpage: 500, params: '', role: 1 } }))
      .then((page) => setAdmins(namesById(page?.data)))
      .catch(() => setAdmins({}));
  }, []);

  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0] ?? null;
    e.target.value = ''; // the same file can be chosen again after a fix
    setReport(null);
    setFile(chosen);
    if (!chosen) return;
    const text = await chosen.text();
    setRows(countRows(text));
    setProblem(uploadProblem(chosen, text));
  };

  const upload = async () => {
    if (!file) return;
    setSent(0);
    setProblem('');
    try {
      const result = await call(
        numbersUpload({
          body: { file },
          axios: uploadHttp,
          onUploadProgress: (event) => setSent(sentPercent(event))
        })
      );
      setReport(result);
      setFile(null);
      past.reload();
    } catch (err) {
      const failure = failureOf(err);
      setProblem(firstFieldErrors(failure.errors).file || failure.message || 'The file could not be uploaded.');
    } finally {
      setSent(null);
    }
  };

  const uploading = sent !== null;
  return (
    <>
      <PageTitle title="Upload numbers" />
      <MainCard title="Add numbers to the pool from a CSV file" sx={{ mb: 2.5 }}>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            The first line names the columns <code>{UPLOAD_COLUMNS.join(',')}</code>. Numbers in E.164 (+442079460001)
            or national form with the country (ISO code, e.g. GB); the vendor by its name (Vendor screen), or empty;
            fees as decimals, empty for 0. At most{' '}
            <strong data-testid="upload-cap">{MAX_UPLOAD_ROWS.toLocaleString('en-US')} numbers per file</strong> (and 10
            MB): split bigger files. The report counts the imported lines and lists each skipped one with its reason; a
            number already in the inventory is skipped.
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              variant="outlined"
              startIcon={<DownloadOutlined />}
              onClick={downloadSample}
              data-testid="upload-sample"
            >
              Sample file
            </Button>
            <Button
              variant="outlined"
              startIcon={<FileTextOutlined />}
              onClick={() => input.current?.click()}
              disabled={uploading}
            >
              Choose CSV
            </Button>
            <input ref={input} type="file" accept=".csv,text/csv" hidden onChange={choose} data-testid="upload-file" />
            <Typography variant="body2" data-testid="upload-chosen">
              {file ? `${file.name}: ${rows.toLocaleString('en-US')} number(s)` : 'No file chosen'}
            </Typography>
            <Button
              variant="contained"
              startIcon={<UploadOutlined />}
              onClick={upload}
              disabled={!file || Boolean(problem) || uploading}
              data-testid="upload-submit"
            >
              Upload
            </Button>
          </Stack>
          {uploading && (
            <Stack spacing={0.5} data-testid="upload-progress">
              <LinearProgress variant={sent < 100 ? 'determinate' : 'indeterminate'} value={sent} />
              <Typography variant="caption">
                {sent < 100 ? `Sending… ${sent}%` : 'Sent; checking and importing every line…'}
              </Typography>
            </Stack>
          )}
          {problem && (
            <Alert severity="error" data-testid="upload-error">
              {problem}
            </Alert>
          )}
        </Stack>
      </MainCard>
      {report && <UploadReport key={report.id} report={report} />}
      <ListCard
        name="uploads"
        title="Past uploads"
        secondary={<SearchBox label="Search uploads" value={past.search} onChange={past.setSearch} />}
        list={past}
        notice=""
        setNotice={() => {}}
        columns={[
          timeColumn('When', timeZone),
          'File',
          'Uploaded by',
          ['Lines', 'right'],
          ['Imported', 'right'],
          ['Skipped', 'right']
        ]}
        emptyText="No uploads yet."
      >
        {past.rows.map((b) => (
          <TableRow hover key={b.id} data-testid="uploads-row" data-file={b.filename}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(b.created_at, timeZone)}</TableCell>
            <TableCell>{b.filename}</TableCell>
            <TableCell>{(b.uploaded_by !== null && admins[b.uploaded_by]) || '—'}</TableCell>
            <TableCell align="right">{b.total}</TableCell>
            <TableCell align="right">{b.imported}</TableCell>
            <TableCell align="right">{b.skipped}</TableCell>
          </TableRow>
        ))}
      </ListCard>
    </>
  );
}
