// Campaigns: each customer's routing settings (the admin sees all), with add, edit, activate and
// delete, and "Test routing": where a call would go now, and why, before a real call is made.
import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import {
  AimOutlined,
  ApiOutlined,
  CommentOutlined,
  ExperimentOutlined,
  PlusOutlined,
  SoundOutlined
} from '@ant-design/icons';

import ConfirmDialog from '../../components/ConfirmDialog';
import { RowActions, SearchBox, StatusSwitch } from '../../components/ListParts';
import ListCard from '../../components/ListCard';
import WebhooksDialog from '../../components/WebhooksDialog';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { campaignsDetails, campaignsRemove, campaignsStatus, type CampaignOut } from '../../client';
import useEntityActions, { type EntityCalls } from '../../hooks/useEntityActions';
import usePagedList, { listQuery, type PageQuery } from '../../hooks/usePagedList';
import { DUPLICATE_ACTIONS, STRATEGIES } from '../../utils/campaignForm';
import { isAdmin } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';
import CampaignDialog from './CampaignDialog';
import CampaignTargetsDialog from './CampaignTargetsDialog';
import DryRunDialog from './DryRunDialog';
import KeywordRulesPanel from './KeywordRulesPanel';
import WhisperDialog from './WhisperDialog';

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
  const { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, toggle, remove, saved } =
    useEntityActions<CampaignOut>(campaignCalls, 'Campaign', { reload, setError });
  const [testing, setTesting] = useState(false);
  const [linking, setLinking] = useState<CampaignOut | null>(null); // the campaign whose targets are shown
  const [hooked, setHooked] = useState<CampaignOut | null>(null); // the campaign whose webhooks are shown
  const [whispering, setWhispering] = useState<CampaignOut | null>(null); // the campaign whose whisper is edited
  const [keywords, setKeywords] = useState<CampaignOut | null>(null); // the campaign whose keyword rules are shown

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
            <TableCell>{row.name}</TableCell>
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
            <TableCell>
              <StatusSwitch name="campaign" row={row} busy={busy} onToggle={toggle} />
            </TableCell>
            <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
              <Tooltip title="Targets">
                <IconButton
                  size="small"
                  color="primary"
                  aria-label={`Targets of ${row.name}`}
                  onClick={() => setLinking(row)}
                  data-testid="campaign-targets"
                >
                  <AimOutlined />
                </IconButton>
              </Tooltip>
              <Tooltip title="Webhooks">
                <IconButton
                  size="small"
                  color="primary"
                  aria-label={`Webhooks of ${row.name}`}
                  onClick={() => setHooked(row)}
                  data-testid="campaign-webhooks"
                >
                  <ApiOutlined />
                </IconButton>
              </Tooltip>
              <Tooltip title="Whisper">
                <IconButton
                  size="small"
                  color="primary"
                  aria-label={`Whisper of ${row.name}`}
                  onClick={() => setWhispering(row)}
                  data-testid="campaign-whisper"
                >
                  <SoundOutlined />
                </IconButton>
              </Tooltip>
              <Tooltip title="Keyword rules">
                <IconButton
                  size="small"
                  color="primary"
                  aria-label={`Keyword rules of ${row.name}`}
                  onClick={() => setKeywords(row)}
                  data-testid="campaign-keyword-rules"
                >
                  <CommentOutlined />
                </IconButton>
              </Tooltip>
              <RowActions
                name="campaign"
                label={row.name}
                onEdit={() => setEditing(row)}
                onDelete={() => setDeleting(row)}
              />
            </TableCell>
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
      <ConfirmDialog
        open={deleting !== null}
        title="Delete campaign"
        text={
          deleting
            ? `Delete campaign ${deleting.name}? A campaign with calls can't be deleted; deactivate it instead.`
            : ''
        }
        confirmLabel="Delete"
        busy={busy}
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
      {whispering && (
        <WhisperDialog
          campaign={whispering}
          onClose={() => setWhispering(null)}
          onSaved={(text) => {
            setWhispering(null);
            setNotice(text);
          }}
        />
      )}
      {keywords && (
        <Dialog open onClose={() => setKeywords(null)} maxWidth="md" fullWidth>
          <DialogTitle>Keyword rules of {keywords.name}</DialogTitle>
          <DialogContent>
            <KeywordRulesPanel campaign={keywords} />
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setKeywords(null)}>Close</Button>
          </DialogActions>
        </Dialog>
      )}
      {linking && <CampaignTargetsDialog campaign={linking} onClose={() => setLinking(null)} />}
      {hooked && (
        <WebhooksDialog
          owner={{ campaign_id: hooked.id }}
          title={`Webhooks of ${hooked.name}`}
          onClose={() => setHooked(null)}
        />
      )}
      <DryRunDialog open={testing} timeZone={user?.timezone} onClose={() => setTesting(false)} />
    </>
  );
}
