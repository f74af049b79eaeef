// Add or edit a campaign's routing settings (the admin names the customer a new one is for).
import { useEffect } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Link from '@mui/material/Link';
import TextField from '@mui/material/TextField';
import { Link as RouterLink } from 'react-router-dom';

import FormDialog, { SelectField } from '../../components/FormDialog';
import RegionRulesFields from '../../components/RegionRulesFields';
import { call } from '../../api/client';
import { campaignsAdd, campaignsUpdate, type CampaignOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { ivrLink } from '../../utils/ivrForm';
import {
  DUPLICATE_ACTIONS,
  STRATEGIES,
  campaignBody,
  campaignToForm,
  emptyCampaign,
  validateCampaign
} from '../../utils/campaignForm';
import {
  campaignRulesBody,
  campaignRulesToForm,
  emptyCampaignRules,
  rulesError,
  validateCampaignRules
} from '../../utils/regionRules';
import { testId } from '../../components/testId';

// The campaign's form with its caller-region blocks beside the rest (utils/regionRules.js).
const toForm = (campaign: CampaignOut | null) =>
  campaign
    ? { ...campaignToForm(campaign), region: campaignRulesToForm(campaign.region_rules) }
    : { ...emptyCampaign(), region: emptyCampaignRules() };

interface CampaignDialogProps {
  open: boolean;
  campaign: CampaignOut | null;
  admin: boolean;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function CampaignDialog({ open, campaign, admin, onClose, onSaved }: CampaignDialogProps) {
  const editing = campaign !== null;
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('campaign', toForm(null));

  useEffect(() => {
    if (open) reset(toForm(campaign));
  }, [open, campaign, reset]);

  const save = async () => {
    const saved = await submit(
      (v) => ({ ...validateCampaign(v, { needsOwner: admin && !editing }), ...validateCampaignRules(v.region) }),
      () => {
        const body = { ...campaignBody(values, { editing, admin }), region_rules: campaignRulesBody(values.region) };
        return editing ? call(campaignsUpdate({ path: { id: campaign.id }, body })) : call(campaignsAdd({ body }));
      },
      'The campaign could not be saved.'
    );
    if (saved) onSaved(`Campaign ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="campaign"
      title={editing ? `Edit campaign ${campaign.name}` : 'Add campaign'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add campaign'}
      onClose={onClose}
      onSave={save}
      maxWidth="sm"
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: admin && !editing ? 8 : 12 }}>
          <TextField {...field('name', 'Name')} autoFocus />
        </Grid>
        {admin && !editing && (
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField {...field('user_id', 'Customer ID', { helperText: 'The customer it is for' })} />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField {...field('strategy', 'Target order')} options={STRATEGIES} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('ring_timeout', 'Ring timeout (s)', { helperText: 'Each target rings this long' })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('buffer_seconds', 'Buffer (s)', { helperText: 'Talk time that makes a conversion' })} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('duplicate_window_seconds', 'Duplicate window (s)', {
              helperText: 'A repeat caller within it is a duplicate'
            })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField {...field('duplicate_action', 'Duplicate calls')} options={DUPLICATE_ACTIONS} />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormControlLabel
            control={
              <Checkbox
                checked={values.record}
                onChange={(e) => set('record', e.target.checked)}
                slotProps={{ input: { ...testId('campaign-record') } }}
              />
            }
            label="Record answered calls"
          />
        </Grid>
        <Grid size={12}>
          <RegionRulesFields
            kind="campaign"
            value={values.region}
            onChange={(region) => set('region', region)}
            error={rulesError(errors)}
          />
        </Grid>
        {editing && (
          <Grid size={12}>
            <Link component={RouterLink} to={ivrLink(campaign, admin)} data-testid="campaign-ivr-link">
              IVR authentication ({campaign.ivr_enabled ? 'on' : 'off'}): prompt, PINs and attempts
            </Link>
          </Grid>
        )}
      </Grid>
    </FormDialog>
  );
}
