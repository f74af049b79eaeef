// Campaigns: each customer's routing settings (the admin sees all), with add, edit, activate and
// delete, and "Test routing": where a call would go now, and why, before a real call is made. A
// campaign's name (or Open) leads to its page, where its targets, IVR, whisper, webhooks and
// numbers are set (CampaignView).
import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { ExperimentOutlined, PlusOutlined } from '@ant-design/icons';
import { Link as RouterLink } from 'react-router-dom';

import { DeleteConfirm, StatusAndActionCells } from '../../components/EntityRowParts';
import { SearchBox } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { campaignsDetails, campaignsRemove, campaignsStatus, type CampaignOut } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { DUPLICATE_ACTIONS, STRATEGIES } from '../../utils/campaignForm';
import { campaignPath } from '../../utils/campaignTabs';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import CampaignDialog from './CampaignDialog';
import DryRunDialog from './DryRunDialog';

const label = (pairs: ReadonlyArray<readonly [string, string]>, value: string): string =>
  pairs.find(([v]) => v === value)?.[1] ?? value;

const fetchCampaigns = (query: PageQuery) => call(campaignsDetails({ query: listQuery(query) }));

const campaignCalls: EntityCalls = {
  setStatus: (id, status) => call(campaignsStatus({ path: { id }, body: { status } })),
  remove: (id) => call(campaignsRemove({ path: { id } }))
};

export default function CampaignPage() {
  const user = getStoredUser();
  const admin = isAdmin(user);
  const list = usePagedList(fetchCampaigns, {
    failure: 'Campaigns could not be loaded.'
  });
  const { rows, setError, search, setSearch, reload } = list;
  const actions = useEntityActions<CampaignOut>(campaignCalls, 'Campaign', { reload, setError });
  const { notice, setNotice, editing, setEditing, saved } = actions;
  const [testing, setTesting] = useState(false);

  return (
    <>
      <PageTitle title="Campaign">
        <Stack direction="row" spacing={1}>
          <Button
            variant="outlined"
            startIcon={<ExperimentOutlined />}
            onClick={() => setTesting(true)}
            data-testid="dryrun-open"
          >
            Test routing
          </Button>
          <Button
            variant="contained"
            startIcon={<PlusOutlined />}
            onClick={() => setEditing({})}
            data-testid="campaign-add"
          >
            Add campaign
          </Button>
        </Stack>
      </PageTitle>
      <ListCard
        name="campaign"
        title="Campaigns"
        secondary={<SearchBox label="Search campaigns" value={search} onChange={setSearch} />}
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Name',
          admin && 'Customer',
          'Target order',
          ['Ring (s)', 'right'],
          'Duplicates',
          'Features',
          'Active',
          ['Action', 'right']
        ]}
        emptyText="No campaigns found."
      >
        {rows.map((row) => (
          <TableRow hover key={row.id} data-testid="campaign-row" data-name={row.name}>
            <TableCell>
              <Link component={RouterLink} to={campaignPath(row.id)} data-testid="campaign-name-link">
                {row.name}
              </Link>
            </TableCell>
            {admin && <TableCell>{row.user_id}</TableCell>}
            <TableCell>{label(STRATEGIES, row.strategy)}</TableCell>
            <TableCell align="right">{row.ring_timeout}</TableCell>
            <TableCell>{label(DUPLICATE_ACTIONS, row.duplicate_action)}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5}>
                {row.record && <Chip size="small" variant="light" color="info" label="Recorded" />}
                {row.ivr_enabled && <Chip size="small" variant="light" color="warning" label="IVR" />}
              </Stack>
            </TableCell>
            <StatusAndActionCells name="campaign" row={row} actions={actions}>
              <Button
                size="small"
                component={RouterLink}
                to={campaignPath(row.id)}
                aria-label={`Open ${row.name}`}
                data-testid="campaign-open"
              >
                Open
              </Button>
            </StatusAndActionCells>
          </TableRow>
        ))}
      </ListCard>
      <CampaignDialog
        open={editing !== null}
        campaign={editing?.id ? editing : null}
        admin={admin}
        onClose={() => setEditing(null)}
        onSaved={saved}
      />
      <DeleteConfirm
        noun="campaign"
        actions={actions}
        question={(row) =>
          `Delete campaign ${row.name}? A campaign with calls can't be deleted; deactivate it instead.`
        }
      />
      <DryRunDialog open={testing} timeZone={user?.timezone} onClose={() => setTesting(false)} />
    </>
  );
}
