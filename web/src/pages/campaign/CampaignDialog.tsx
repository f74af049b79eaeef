// Add a campaign, or edit one from the list (the admin names the customer a new one is for); its
// other settings (targets, IVR, whisper, webhooks, numbers) are on the campaign's page.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { Link as RouterLink } from 'react-router-dom';

import FormDialog from '../../components/FormDialog';
import type { CampaignOut } from '../../client';
import { campaignPath } from '../../utils/campaignTabs';
import { CampaignFields, useCampaignForm } from './CampaignForm';

interface CampaignDialogProps {
  open: boolean;
  campaign: CampaignOut | null;
  admin: boolean;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function CampaignDialog({ open, campaign, admin, onClose, onSaved }: CampaignDialogProps) {
  const editing = campaign !== null;
  const form = useCampaignForm(campaign, admin, open);

  const save = async () => {
    const saved = await form.save();
    if (saved) onSaved(`Campaign ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="campaign"
      title={editing ? `Edit campaign ${campaign.name}` : 'Add campaign'}
      message={form.message}
      saving={form.saving}
      saveLabel={editing ? 'Save' : 'Add campaign'}
      onClose={onClose}
      onSave={save}
      maxWidth="sm"
    >
      <CampaignFields form={form} needsOwner={admin && !editing} />
      {editing && (
        <Box sx={{ mt: 2 }}>
          <Link component={RouterLink} to={campaignPath(campaign.id, 'ivr')} data-testid="campaign-ivr-link">
            IVR authentication ({campaign.ivr_enabled ? 'on' : 'off'}): prompt, PINs and attempts
          </Link>
        </Box>
      )}
    </FormDialog>
  );
}
