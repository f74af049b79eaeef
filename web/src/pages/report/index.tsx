// The call report, a tool to analyse calls with: filters, a period in the user's time zone, columns
// chosen, sorted on the server, grouped with totals; the whole view lives in the URL (shareable, the
// back button walks it) and can be saved by name. A row opens the call with its routing trail.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { DownloadOutlined } from '@ant-design/icons';

import { reportsSave, type CallReportRow, type ReportColumn, type ReportSort } from '../../client';
import ConversionsExportDialog from '../../components/ConversionsExportDialog';
import Notice from '../../components/Notice';
import { PageTitle } from '../../components/PagePlaceholder';
import { failureMessage } from '../../hooks/apiFailure';
import { saveBlob } from '../../utils/download';
import { isAdmin, isBuyer } from '../../utils/roles';
import { getItem, getStoredUser, setItem } from '../../utils/storage';
import {
  COLUMNS,
  DEFAULT_COLUMNS,
  DIMENSIONS,
  columnsKey,
  viewFromParams,
  viewQuery,
  viewToParams,
  type ReportView
} from '../../utils/reportView';
import BlockCallers from './BlockCallers';
import CallDetail from './CallDetail';
import CallsTable from './CallsTable';
import ChoiceField from './ChoiceField';
import ColumnChooser from './ColumnChooser';
import ReportFilterBar from './ReportFilterBar';
import { GroupsTable, TotalsBar } from './ReportSums';
import SavedViews from './SavedViews';

function storedColumns(userId: number | null | undefined): ReportColumn[] {
  try {
    const saved: unknown = JSON.parse(getItem(columnsKey(userId)) ?? 'null');
    const known = COLUMNS.map((c) => c.key);
    if (Array.isArray(saved)) {
      const columns = saved.filter((c): c is ReportColumn => known.includes(c as ReportColumn));
      if (columns.length) return columns;
    }
  } catch {
    // An unreadable choice: the defaults.
  }
  return [...DEFAULT_COLUMNS];
}

export default function ReportPage() {
  const user = getStoredUser();
  const admin = isAdmin(user);
  const zone = user?.timezone;
  const [params, setParams] = useSearchParams();
  const [mine] = useState(() => storedColumns(user?.user_id));
  const view = useMemo(() => viewFromParams(params, mine), [params, mine]);
  // Every change is a new history entry: Back returns to the view before it.
  const show = useCallback((next: ReportView) => setParams(viewToParams(next)), [setParams]);
  const [open, setOpen] = useState<CallReportRow | null>(null);
  const [error, setError] = useState('');
  const [exporting, setExporting] = useState(false);
  const [conversions, setConversions] = useState(false);
  const [notice, setNotice] = useState('');

  // The person's own columns in the URL from the start, so the URL they share shows them too.
  useEffect(() => {
    if (!params.has('cols') && mine.join(',') !== DEFAULT_COLUMNS.join(',')) {
      setParams(viewToParams(viewFromParams(params, mine)), { replace: true });
    }
  }, [params, mine, setParams]);

  // A preset's dates as of the page's opening. The parts below are mounted again (their `key`) when
  // the query's text changes, and each keeps the query it was mounted with.
  const [now] = useState(() => Date.now());
  const query = viewQuery(view, now, zone);
  const filtersKey = JSON.stringify(query);
  // Calls ticked for a bulk action, for the query they were ticked under (another query: none).
  const [ticked, setTicked] = useState<{ key: string; calls: CallReportRow[] }>({ key: '', calls: [] });
  const selected = ticked.key === filtersKey ? ticked.calls : [];
  const select = (calls: CallReportRow[]) => setTicked({ key: filtersKey, calls });
  const blocked = (message: string) => {
    select([]);
    setNotice(message);
  };
  const columns = view.columns.filter((key) => admin || !COLUMNS.find((c) => c.key === key)?.admin);

  const sortBy = (sort: ReportSort) =>
    show({ ...view, sort, direction: view.sort === sort && view.direction === 'desc' ? 'asc' : 'desc' });
  const chooseColumns = (next: ReportColumn[]) => {
    setItem(columnsKey(user?.user_id), JSON.stringify(next));
    show({ ...view, columns: next });
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      // The same calls as a CSV file (all pages). Asked as a blob: its answer is the file's Blob.
      const { data } = await reportsSave({ query, responseType: 'blob', headers: { Accept: 'text/csv' } });
      saveBlob(new Blob([data], { type: 'text/csv' }), 'call-report.csv');
    } catch (err) {
      setError(failureMessage(err, 'The report could not be exported.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageTitle title="Report">
        {!isBuyer(user) && (
          <Button
            variant="outlined"
            onClick={() => setConversions(true)}
            data-testid="report-conversions"
            sx={{ mr: 1 }}
          >
            Google Ads conversions
          </Button>
        )}
        <Button
          variant="outlined"
          startIcon={<DownloadOutlined />}
          onClick={exportCsv}
          disabled={exporting}
          data-testid="report-export"
        >
          Export CSV
        </Button>
      </PageTitle>
      <ReportFilterBar
        key={params.toString()}
        view={view}
        admin={admin}
        onApply={(filters, preset) => show({ ...view, filters, preset })}
        onProblem={setError}
      />
      {error && (
        <Alert severity="error" onClose={() => setError('')} sx={{ mb: 2 }} data-testid="report-problem">
          {error}
        </Alert>
      )}
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1, mb: 2, alignItems: 'center' }}>
        <SavedViews view={view} onOpen={show} onProblem={setError} />
        <ColumnChooser columns={columns} admin={admin} onChange={chooseColumns} />
        <ChoiceField
          label="Group by"
          value={view.group}
          none="No grouping"
          options={DIMENSIONS}
          onChange={(group) => show({ ...view, group })}
          testid="report-group-by"
          sx={{ minWidth: 160 }}
        />
        {!isBuyer(user) && <BlockCallers calls={selected} admin={admin} onDone={blocked} onProblem={setError} />}
      </Stack>
      <TotalsBar key={`totals ${filtersKey}`} query={query} />
      {view.group && <GroupsTable key={`${view.group} ${filtersKey}`} query={query} by={view.group} />}
      <CallsTable
        key={`${filtersKey} ${view.sort} ${view.direction}`}
        query={query}
        sort={view.sort}
        direction={view.direction}
        columns={columns}
        timeZone={zone}
        onSort={sortBy}
        onOpen={setOpen}
        selection={isBuyer(user) ? undefined : { selected, onChange: select }}
      />
      <CallDetail call={open} timeZone={zone} onClose={() => setOpen(null)} />
      <Notice text={notice} onClose={() => setNotice('')} testid="report-notice" />
      {conversions && <ConversionsExportDialog open admin={admin} onClose={() => setConversions(false)} />}
    </>
  );
}
