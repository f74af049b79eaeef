// The customer's tracking numbers: point each at a campaign (its calls route from the next one
// on) and a traffic source (its calls are that source's), take more from the pool (setup fees
// charged now), release one back to the pool.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip, { type ChipProps } from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { PlusOutlined, RollbackOutlined } from '@ant-design/icons';
import { Link as RouterLink } from 'react-router-dom';

import ConfirmDialog from '../../components/ConfirmDialog';
import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import NumberPoolDialog from '../../components/NumberPoolDialog';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import {
  campaignsDetails,
  numbersDetails,
  numbersRelease,
  numbersSetStatus,
  numbersTake,
  numbersUpdate,
  sourcesDetails,
  type CampaignOut,
  type NumberRow,
  type SourceRow
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { announceMoneyMoved } from '../../store/money';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { formatDate, timeColumn } from '../../utils/time';
import { getStoredUser } from '../../utils/storage';
import { testId } from '../../components/testId';

// A customer's campaigns fit in one of the API's pages.
const CAMPAIGN_PAGE = 500;
const STATUS_COLOR: Record<string, ChipProps['color']> = { active: 'success', inactive: 'default', suspended: 'error' };

const fetchNumbers = (query: PageQuery) => call(numbersDetails({ query: listQuery(query) }));

// A customer's number is released, not deleted: only the switch's call is used here.
const numberCalls: EntityCalls = {
  setStatus: (id, status) => call(numbersSetStatus({ path: { id }, body: { status } })),
  remove: (id) => call(numbersRelease({ body: { ids: [id] } }))
};

export default function NumberPage() {
  const timeZone = getStoredUser()?.timezone;
  const list = usePagedList(fetchNumbers, {
    failure: 'Your numbers could not be loaded.'
  });
  const { rows, setError, search, setSearch, reload } = list;
  const {
    notice,
    setNotice,
    busy,
    deleting: releasing,
    setDeleting: setReleasing,
    act,
    saved
  } = useEntityActions<NumberRow>(numberCalls, 'Number', {
    reload,
    setError
  });
  const [options, setOptions] = useState<CampaignOut[]>([]);
  const [sources, setSources] = useState<SourceRow[]>([]);
  const [taking, setTaking] = useState(false);
  // Numbers ticked for release together (DELETE /number: one call, all or nothing), and its confirm.
  const [selected, setSelected] = useState<NumberRow[]>([]);
  const [releasingMany, setReleasingMany] = useState(false);
  const tick = (row: NumberRow, on: boolean) =>
    setSelected((picked) => (on ? [...picked, row] : picked.filter((r) => r.id !== row.id)));
  const releaseMany = () => {
    const ids = selected.map((r) => r.id);
    setReleasingMany(false);
    setSelected([]);
    void act(async () => (await numbersRelease({ body: { ids } })).data.message, 'The numbers could not be released.');
  };

  useEffect(() => {
    call(campaignsDetails({ query: { page: 1, perpage: CAMPAIGN_PAGE, params: '' } }))
      .then((page) => setOptions(page?.data ?? []))
      .catch((err: unknown) => setError(failureMessage(err, 'Your campaigns could not be loaded.')));
    call(sourcesDetails({ query: { page: 1, perpage: CAMPAIGN_PAGE } }))
      .then((page) => setSources(page?.data ?? []))
      .catch((err: unknown) => setError(failureMessage(err, 'Your sources could not be loaded.')));
  }, [setError]);

  const attribute = (row: NumberRow, sourceId: string) => {
    const source = sources.find((s) => String(s.id) === sourceId);
    void act(async () => {
      await call(numbersUpdate({ path: { id: row.id }, body: { source_id: source ? source.id : null } }));
      return source ? `Calls to ${row.number} are now source ${source.name}'s.` : `${row.number} has no source now.`;
    }, 'The source could not be changed.');
  };

  const point = (row: NumberRow, campaignId: string) => {
    const campaign = options.find((c) => String(c.id) === campaignId);
    void act(async () => {
      await call(numbersUpdate({ path: { id: row.id }, body: { campaign_id: campaign ? campaign.id : null } }));
      return campaign
        ? `Calls to ${row.number} now go to campaign ${campaign.name}.`
        : `${row.number} is not in a campaign now: its calls won't route.`;
    }, 'The campaign could not be changed.');
  };

  const release = () => {
    const row = releasing;
    if (!row) return;
    setReleasing(null);
    void act(
      async () => (await numbersRelease({ body: { ids: [row.id] } })).data.message,
      'The number could not be released.'
    );
  };

  return (
    <>
      <PageTitle title="Number">
        {selected.length > 0 && (
          <Button
            variant="outlined"
            color="error"
            startIcon={<RollbackOutlined />}
            onClick={() => setReleasingMany(true)}
            data-testid="number-release-selected"
          >
            Release {selected.length} selected
          </Button>
        )}
        <Button
          variant="contained"
          startIcon={<PlusOutlined />}
          onClick={() => setTaking(true)}
          data-testid="number-take"
        >
          Get numbers
        </Button>
      </PageTitle>
      <ListCard
        name="number"
        title="Your tracking numbers"
        secondary={
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Link component={RouterLink} to="/source" variant="body2" data-testid="number-sources-link">
              Sources
            </Link>
            <SearchBox label="Search numbers" value={search} onChange={setSearch} />
          </Stack>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          // The tick boxes' column (ListCard leaves out an empty heading, which shifts the rest).
          'Select',
          'Number',
          'Campaign',
          'Source',
          ['Monthly fee', 'right'],
          timeColumn('Paid until', timeZone),
          'Status',
          ['Action', 'right']
        ]}
        emptyText="No numbers yet: get some from the pool."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="number-row" data-number={row.number}>
            <TableCell padding="checkbox">
              <Checkbox
                size="small"
                checked={selected.some((r) => r.id === row.id)}
                onChange={(e) => tick(row, e.target.checked)}
                slotProps={{ input: { 'aria-label': `Select ${row.number}` } }}
                data-testid="number-select"
              />
            </TableCell>
            <TableCell>{row.number}</TableCell>
            <TableCell>
              <TextField
                select
                size="small"
                variant="standard"
                value={row.campaign_id ? String(row.campaign_id) : ''}
                onChange={(e) => point(row, e.target.value)}
                disabled={busy}
                sx={{ minWidth: 200 }}
                slotProps={{
                  select: { displayEmpty: true },
                  htmlInput: { 'aria-label': `Campaign of ${row.number}`, ...testId('number-campaign') }
                }}
              >
                <MenuItem value="">
                  <em>None (calls don't route)</em>
                </MenuItem>
                {options.map((c) => (
                  <MenuItem key={c.id} value={String(c.id)}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
            <TableCell>
              <TextField
                select
                size="small"
                variant="standard"
                value={row.source_id ? String(row.source_id) : ''}
                onChange={(e) => attribute(row, e.target.value)}
                disabled={busy}
                sx={{ minWidth: 160 }}
                slotProps={{
                  select: { displayEmpty: true },
                  htmlInput: { 'aria-label': `Source of ${row.number}`, ...testId('number-source') }
                }}
              >
                <MenuItem value="">
                  <em>None</em>
                </MenuItem>
                {sources.map((s) => (
                  <MenuItem key={s.id} value={String(s.id)}>
                    {s.name}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
            <TableCell align="right">{formatBalance(row.monthly_fee)}</TableCell>
            <TableCell>{row.paid_until ? formatDate(row.paid_until, timeZone) : '—'}</TableCell>
            <TableCell>
              <Chip size="small" variant="light" color={STATUS_COLOR[row.status] ?? 'default'} label={row.status} />
            </TableCell>
            <TableCell align="right">
              <Tooltip title="Release to the pool">
                <IconButton
                  size="small"
                  color="error"
                  aria-label={`Release ${row.number}`}
                  onClick={() => setReleasing(row)}
                  data-testid="number-release"
                >
                  <RollbackOutlined />
                </IconButton>
              </Tooltip>
            </TableCell>
          </TableRow>
        ))}
      </ListCard>
      {taking && (
        <NumberPoolDialog
          onClose={() => setTaking(false)}
          onConfirm={async (ids) => (await numbersTake({ body: { number_ids: ids } })).data}
          onDone={(result) => {
            setTaking(false);
            saved(result.message);
            announceMoneyMoved(); // the setup fees left the wallet
          }}
        />
      )}
      <ConfirmDialog
        open={releasing !== null}
        title="Release number"
        text={
          releasing
            ? `Release ${releasing.number} to the pool? Its calls stop routing, and the fees paid are not refunded.`
            : ''
        }
        confirmLabel="Release"
        busy={busy}
        onConfirm={release}
        onClose={() => setReleasing(null)}
      />
      <ConfirmDialog
        open={releasingMany}
        title="Release numbers"
        text={`Release ${selected.map((r) => r.number).join(', ')} to the pool? Their calls stop routing, and the fees paid are not refunded.`}
        confirmLabel={`Release ${selected.length}`}
        busy={busy}
        onConfirm={releaseMany}
        onClose={() => setReleasingMany(false)}
      />
    </>
  );
}
