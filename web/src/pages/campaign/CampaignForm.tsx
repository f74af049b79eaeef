// A campaign's routing settings as a form, shared by the add/edit dialog (the list) and the campaign
// page's Settings tab: its state and save (useCampaignForm), and its fields (CampaignFields).
import { useEffect } from 'react';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import { SelectField } from '../../components/FormDialog';
import RegionRulesFields from '../../components/RegionRulesFields';
import { testId } from '../../components/testId';
import { call } from '../../api/client';
import { campaignsAdd, campaignsUpdate, type CampaignOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
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

// The campaign's form with its caller-region blocks beside the rest (utils/regionRules.js).
const toForm = (campaign: CampaignOut | null) =>
  campaign
    ? { ...campaignToForm(campaign), region: campaignRulesToForm(campaign.region_rules) }
    : { ...emptyCampaign(), region: emptyCampaignRules() };

/**
 * The form of `campaign` (null: a new one), started afresh whenever `shown` turns true or the
 * campaign changes; `save()` answers the saved campaign, or undefined when refused.
 */
export function useCampaignForm(campaign: CampaignOut | null, admin: boolean, shown = true) {
  const form = useFormDialog('campaign', toForm(null));
  const { values, submit, reset } = form;
  const editing = campaign !== null;

  useEffect(() => {
    if (shown) reset(toForm(campaign));
  }, [shown, campaign, reset]);

  const save = () =>
    submit(
      (v) => ({ ...validateCampaign(v, { needsOwner: admin && !editing }), ...validateCampaignRules(v.region) }),
      () => {
        const body = { ...campaignBody(values, { editing, admin }), region_rules: campaignRulesBody(values.region) };
        return editing ? call(campaignsUpdate({ path: { id: campaign.id }, body })) : call(campaignsAdd({ body }));
      },
      'The campaign could not be saved.'
    );

  return { ...form, save };
}

type CampaignFormState = ReturnType<typeof useCampaignForm>;

interface CampaignFieldsProps {
  form: CampaignFormState;
  /** A new campaign made by the admin names its customer. */
  needsOwner: boolean;
}

export function CampaignFields({ form, needsOwner }: CampaignFieldsProps) {
  const { values, set, errors, field } = form;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: needsOwner ? 8 : 12 }}>
        <TextField {...field('name', 'Name')} autoFocus />
      </Grid>
      {needsOwner && (
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
    </Grid>
  );
}
