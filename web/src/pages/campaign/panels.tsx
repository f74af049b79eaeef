// The campaign page's forms as tab panels: its settings and its IVR authentication, each saved
// with the API the list's and the IVR Auth screens' dialogs use.
import { useState } from 'react';

import FormPanel from '../../components/FormPanel';
import type { CampaignOut } from '../../client';
import { IvrFields, useIvrForm } from '../ivr/IvrForm';
import { CampaignFields, useCampaignForm } from './CampaignForm';

/** What every tab's panel is given: the campaign as read, and a way to show it as saved. */
export interface CampaignPanelProps {
  campaign: CampaignOut;
  admin: boolean;
  onSaved: (campaign: CampaignOut) => void;
}

export function SettingsPanel({ campaign, admin, onSaved }: CampaignPanelProps) {
  const form = useCampaignForm(campaign, admin);
  const [notice, setNotice] = useState('');
  const save = async () => {
    setNotice('');
    const saved = await form.save();
    if (saved) {
      setNotice(`Campaign ${saved.name} saved.`);
      onSaved(saved);
    }
  };
  return (
    <FormPanel
      name="campaign"
      message={form.message}
      notice={notice}
      saving={form.saving}
      saveLabel="Save settings"
      onSave={save}
    >
      <CampaignFields form={form} needsOwner={false} />
    </FormPanel>
  );
}

export function IvrPanel({ campaign }: CampaignPanelProps) {
  const form = useIvrForm(campaign.id);
  const [notice, setNotice] = useState('');
  const save = async () => {
    setNotice('');
    if (await form.save()) setNotice(`IVR settings of ${campaign.name} saved.`);
  };
  return (
    <FormPanel
      name="ivr"
      message={form.message || form.loadError}
      notice={notice}
      saving={form.saving || !form.loaded}
      saveLabel="Save IVR settings"
      onSave={save}
    >
      <IvrFields campaignId={campaign.id} form={form} />
    </FormPanel>
  );
}
