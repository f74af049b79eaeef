// The campaign page's tabs, in order: each a path (`/campaign/12/<path>`), a label and the panels it
// shows, one below the other. Numbers shows the campaign's numbers, then its
// website numbers (the pool swapped on its site: docs/attribution.md).
import type { ComponentType } from 'react';

import WebhooksPanel from '../../components/WebhooksPanel';
import CampaignNumbersPanel from './CampaignNumbersPanel';
import CampaignTargetsPanel from './CampaignTargetsPanel';
import KeywordRulesPanel from './KeywordRulesPanel';
import { IvrPanel, SettingsPanel, type CampaignPanelProps } from './panels';
import WebsiteNumbersPanel from './WebsiteNumbersPanel';
import WhisperPanel from './WhisperPanel';

export interface CampaignTab {
  path: string;
  label: string;
  panels: readonly ComponentType<CampaignPanelProps>[];
}

const TargetsPanel = ({ campaign }: CampaignPanelProps) => <CampaignTargetsPanel campaign={campaign} />;
const CampaignWhisperPanel = ({ campaign }: CampaignPanelProps) => <WhisperPanel campaign={campaign} />;
const CampaignWebhooksPanel = ({ campaign }: CampaignPanelProps) => (
  <WebhooksPanel owner={{ campaign_id: campaign.id }} />
);

export const CAMPAIGN_TABS: readonly CampaignTab[] = [
  { path: 'settings', label: 'Settings', panels: [SettingsPanel] },
  { path: 'targets', label: 'Targets', panels: [TargetsPanel] },
  { path: 'ivr', label: 'IVR', panels: [IvrPanel] },
  { path: 'whisper', label: 'Whisper', panels: [CampaignWhisperPanel] },
  { path: 'webhooks', label: 'Webhooks', panels: [CampaignWebhooksPanel] },
  { path: 'keywords', label: 'Keyword rules', panels: [KeywordRulesPanel] },
  { path: 'numbers', label: 'Numbers', panels: [CampaignNumbersPanel, WebsiteNumbersPanel] }
];
