// One campaign's page (/campaign/:id/:tab): everything that sets it up, a tab each (tabs.tsx), each
// tab its own URL so Back returns to the tab before and a tab's link can be shared.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Link as RouterLink, Navigate, useParams } from 'react-router-dom';

import MainCard from '../../components/MainCard';
import { PageTitle } from '../../components/PagePlaceholder';
import { call } from '../../api/client';
import { campaignsOne, type CampaignOut } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { CAMPAIGN_LIST, campaignPath, tabOf } from '../../utils/campaignTabs';
import { isAdmin } from '../../utils/roles';
import { statusColor } from '../../utils/status';
import { getStoredUser } from '../../utils/storage';
import { CAMPAIGN_TABS } from './tabs';

const PATHS = CAMPAIGN_TABS.map((t) => t.path);

export default function CampaignView() {
  const params = useParams();
  const id = Number(params.id);
  const shown = tabOf(PATHS, params.tab);
  const tab = CAMPAIGN_TABS.find((t) => t.path === shown);
  const admin = isAdmin(getStoredUser());
  const [campaign, setCampaign] = useState<CampaignOut | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let alive = true;
    call(campaignsOne({ path: { id } }))
      .then((found) => alive && setCampaign(found))
      .catch((err: unknown) => alive && setError(failureMessage(err, 'The campaign could not be loaded.')));
    return () => {
      alive = false;
    };
  }, [id]);

  if (!Number.isInteger(id) || id < 1) return <Navigate to={CAMPAIGN_LIST} replace />;
  if (!tab) return <Navigate to={campaignPath(id)} replace />;

  return (
    <>
      <PageTitle title={campaign ? `Campaign ${campaign.name}` : 'Campaign'}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {campaign && (
            <Chip
              size="small"
              variant="light"
              color={statusColor(campaign.status)}
              label={campaign.status}
              data-testid="campaign-status"
            />
          )}
          <Button component={RouterLink} to={CAMPAIGN_LIST} startIcon={<ArrowLeftOutlined />}>
            All campaigns
          </Button>
        </Stack>
      </PageTitle>
      {error && (
        <Alert severity="error" data-testid="campaign-page-error">
          {error}
        </Alert>
      )}
      <MainCard content={false}>
        <Tabs
          value={tab.path}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {CAMPAIGN_TABS.map((t) => (
            <Tab
              key={t.path}
              value={t.path}
              label={t.label}
              component={RouterLink}
              to={campaignPath(id, t.path)}
              data-testid={`campaign-tab-${t.path}`}
            />
          ))}
        </Tabs>
        <Stack spacing={3} sx={{ p: { xs: 2, sm: 3 } }} data-testid={`campaign-panel-${tab.path}`}>
          {campaign &&
            tab.panels.map((Panel, n) => <Panel key={n} campaign={campaign} admin={admin} onSaved={setCampaign} />)}
        </Stack>
      </MainCard>
    </>
  );
}
