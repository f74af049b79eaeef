// Rate card (admin): the rates of one tariff, chosen by name: prefix, per-minute rate, connect fee,
// billing blocks, minimum and start. Add, edit, activate, delete, search by prefix; import a whole
// card from CSV and export it (in the import's own format).
import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { FilterSelect, RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { TariffPicker } from '../../components/NamePicker';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { ratesOfTariff, ratesRemove, ratesSetStatus, type RateOut, type Status, type TariffBrief } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { fetchAll, type Page, type PageQuery } from '../../hooks/usePagedList';
import { RATE_PLACES, formatBalance } from '../../utils/balance';
import { saveCsv } from '../../utils/download';
import { increments, ratesCsv, utcMinute } from '../../utils/rateForm';
import RateDialog from './RateDialog';
import RateImportDialog from './RateImportDialog';

const NO_RATES: Page<RateOut> = { data: [], total: 0 };
const STATUSES: Status[] = ['active', 'inactive'];

interface RateFilters {
  status: Status;
}

/** A page of tariff `tariffId`'s rates; `params` matches the prefix or country. */
const fetchRatesOf = (
  tariffId: number,
  { page = 1, perpage = 10, params = '', status }: Partial<PageQuery & RateFilters>
) => call(ratesOfTariff({ path: { id: tariffId }, query: { page, perpage, params, ...(status ? { status } : {}) } }));

const rateCalls: EntityCalls = {
  setStatus: (id, status) => call(ratesSetStatus({ path: { id }, body: { status } })),
  remove: (id) => call(ratesRemove({ path: { id } }))
};

export default function RateCardPage() {
  const [query, setQuery] = useSearchParams();
  const tariffId = Number(query.get('tariff')) || null;
  const [tariff, setTariff] = useState<TariffBrief | null>(null);
  const fetchPage = useCallback(
    (q: PageQuery & Partial<RateFilters>) => (tariffId ? fetchRatesOf(tariffId, q) : Promise.resolve(NO_RATES)),
    [tariffId]
  );
  const list = usePagedList(fetchPage, { failure: 'Rates could not be loaded.' });
  const { rows, total, setError, search, setSearch, filters, filterBy, reload } = list;
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } =
    useEntityActions<RateOut>(rateCalls, 'Rate', {
      reload,
      setError,
      labelOf: (row) => row.prefix
    });
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const currency = tariff?.currency;

  const exportCsv = async () => {
    if (!tariff || !tariffId) return;
    setExporting(true);
    try {
      const all = await fetchAll((q) => fetchRatesOf(tariffId, q), { params: list.search.trim(), ...filters });
      saveCsv(ratesCsv(all), `rate-card-${tariff.name.replace(/[^\w.-]+/g, '_')}.csv`);
    } catch (err) {
      setError(failureMessage(err, 'The rate card could not be exported.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageTitle title="Rate Card">
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <TariffPicker
            value={tariffId ?? ''}
            onChange={(id, row) => {
              setTariff(row);
              setQuery(id ? { tariff: String(id) } : {});
            }}
            onLoaded={(rowsOf) => setTariff(rowsOf.find((t) => t.id === tariffId) ?? null)}
            testid="rate-tariff"
            helperText=""
            sx={{ minWidth: 260 }}
          />
          <Button
            variant="outlined"
            startIcon={<DownloadOutlined />}
            onClick={exportCsv}
            disabled={!tariff || exporting || total === 0}
            data-testid="rate-export"
          >
            Export CSV
          </Button>
          <Button
            variant="outlined"
            startIcon={<UploadOutlined />}
            onClick={() => setImporting(true)}
            disabled={!tariff}
            data-testid="rate-import"
          >
            Import CSV
          </Button>
          <Button
            variant="contained"
            startIcon={<PlusOutlined />}
            onClick={() => setEditing({})}
            disabled={!tariff}
            data-testid="rate-add"
          >
            Add rate
          </Button>
        </Stack>
      </PageTitle>
      <ListCard
        name="rate"
        title={tariff ? `Rates of ${tariff.name} (${tariff.currency})` : 'Rates'}
        secondary={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <FilterSelect
              label="Status"
              value={filters.status}
              options={STATUSES}
              onChange={(v) => filterBy(v ? { status: v } : {})}
            />
            <SearchBox label="Search prefixes" value={search} onChange={setSearch} />
          </Stack>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Prefix',
          'Country',
          ['Per minute', 'right'],
          ['Connect fee', 'right'],
          'Blocks (s)',
          ['Minimum (s)', 'right'],
          'From (UTC)',
          'Active',
          ['Action', 'right']
        ]}
        emptyText={tariffId ? 'No rates yet: add them, or import a rate card.' : 'Choose a tariff to see its rates.'}
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="rate-row" data-prefix={row.prefix}>
            <TableCell>{row.prefix}</TableCell>
            <TableCell>{row.country ?? '—'}</TableCell>
            <TableCell align="right">{formatBalance(row.rate_per_minute, currency, RATE_PLACES)}</TableCell>
            <TableCell align="right">{formatBalance(row.connection_fee, currency, RATE_PLACES)}</TableCell>
            <TableCell>{increments(row)}</TableCell>
            <TableCell align="right">{row.min_duration}</TableCell>
            <TableCell>{utcMinute(row.effective_from)}</TableCell>
            <TableCell>
              <StatusSwitch name="rate" row={row} label={row.prefix} busy={busy} onToggle={toggle} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <RowActions
                name="rate"
                label={row.prefix}
                onEdit={() => setEditing(row)}
                onDelete={() => setDeleting(row)}
              />
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      {tariff && (
        <RateDialog
          open={editing !== null}
          rate={editing?.id ? editing : null}
          tariff={tariff}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      {importing && tariff && (
        <RateImportDialog tariff={tariff} onClose={() => setImporting(false)} onImported={() => reload()} />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete rate"
        text={
          deleting
            ? `Delete the rate for ${deleting.prefix}? A rate calls were rated at can't be deleted; deactivate it instead.`
            : ''
        }
        confirmLabel="Delete"
        busy={busy}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
