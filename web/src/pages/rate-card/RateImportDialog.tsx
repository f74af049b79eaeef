// Import a whole rate card (CSV) into a tariff: the upload's progress, then the result, all lines
// or none: the counts imported, or each refused line and why. Mounted while shown.
import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { UploadOutlined } from '@ant-design/icons';

import { uploadHttp } from '../../api/client';
import { ratesImportCard, type EnvelopeRateImportOut, type TariffBrief } from '../../client';
import { failureOf } from '../../hooks/apiFailure';
import { saveCsv } from '../../utils/download';
import { importProblems } from '../../utils/rateForm';
import { testId } from '../../components/testId';

const SAMPLE =
  'prefix,country,rate,connection_fee,initial_increment,billing_increment,min_duration,effective_from\r\n4420,GB,0.0100,0,60,60,0,2026-01-01T00:00:00Z\r\n1415,,0.0085,0.01,6,6,0,\r\n';

interface RateImportDialogProps {
  tariff: TariffBrief;
  onClose: () => void;
  onImported: (message: string) => void;
}

export default function RateImportDialog({ tariff, onClose, onImported }: RateImportDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [replace, setReplace] = useState(false);
  const [progress, setProgress] = useState<number | null>(null); // null idle, 0..1 uploading, 1 then the server checks
  const [result, setResult] = useState<EnvelopeRateImportOut | null>(null);
  const [refusal, setRefusal] = useState<{ message: string; lines: ReturnType<typeof importProblems> } | null>(null);
  const busy = progress !== null;

  const upload = async () => {
    if (!file) return;
    setResult(null);
    setRefusal(null);
    setProgress(0);
    try {
      const { data: answer } = await ratesImportCard({
        path: { tariff_id: tariff.id },
        query: replace ? { replace: true } : {},
        body: { file },
        axios: uploadHttp,
        onUploadProgress: (e) => setProgress(e.total ? e.loaded / e.total : 0)
      });
      setResult(answer);
      onImported(answer.message);
    } catch (err) {
      const failure = failureOf(err);
      setRefusal({
        message: failure.message || 'The rate card could not be imported.',
        lines: importProblems(failure.errors)
      });
    } finally {
      setProgress(null);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth data-testid="import-dialog">
      <DialogTitle>Import a rate card into {tariff.name}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          A UTF-8 CSV (at most 10 MB, about 100,000 rates) with a header line: <code>prefix</code> and <code>rate</code>{' '}
          are required;{' '}
          <code>country, connection_fee, initial_increment, billing_increment, min_duration, effective_from</code> are
          optional. Rates are in {tariff.currency} per minute. Every line is imported, or none.{' '}
          <Button size="small" onClick={() => saveCsv(SAMPLE, 'rate-card-sample.csv')} data-testid="import-sample">
            Sample file
          </Button>
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button variant="outlined" component="label" startIcon={<UploadOutlined />} disabled={busy}>
            Choose CSV
            <input
              hidden
              type="file"
              accept=".csv,text/csv"
              data-testid="import-file"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography variant="body2" data-testid="import-filename">
            {file ? `${file.name} (${Math.ceil(file.size / 1024)} KB)` : 'No file chosen'}
          </Typography>
          <FormControlLabel
            control={
              <Checkbox
                checked={replace}
                onChange={(e) => setReplace(e.target.checked)}
                slotProps={{ input: { ...testId('import-replace') } }}
              />
            }
            label="Replace rates with the same prefix and start"
          />
        </Box>
        {busy && (
          <Box sx={{ mt: 2 }} data-testid="import-progress">
            <LinearProgress
              variant={progress < 1 ? 'determinate' : 'indeterminate'}
              value={Math.round(progress * 100)}
            />
            <Typography variant="caption">
              {progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : 'Checking and loading the rates…'}
            </Typography>
          </Box>
        )}
        {result && (
          <Alert severity="success" sx={{ mt: 2 }} data-testid="import-result">
            {result.message} {result.data.inserted} new, {result.data.replaced} replaced, from {result.data.rows} lines.
          </Alert>
        )}
        {refusal && (
          <Box sx={{ mt: 2 }} data-testid="import-refusal">
            <Alert severity="error">{refusal.message}</Alert>
            {refusal.lines.length > 0 && (
              <Table size="small" sx={{ mt: 1 }}>
                <TableHead>
                  <TableRow>
                    <TableCell>Line</TableCell>
                    <TableCell>Skipped because</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {refusal.lines.map(({ line, problems }) => (
                    <TableRow key={line} data-testid="import-line" data-line={line}>
                      <TableCell>{line}</TableCell>
                      <TableCell>{problems.join('; ')}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          Close
        </Button>
        <Button variant="contained" onClick={upload} disabled={busy || !file} data-testid="import-upload">
          Import
        </Button>
      </DialogActions>
    </Dialog>
  );
}
