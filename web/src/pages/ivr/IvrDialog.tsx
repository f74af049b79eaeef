// One campaign's IVR authentication: on or off, the prompt Asterisk plays, the PINs callers may
// key, their length and the tries allowed. Read afresh from the server each time it opens.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';

import FormDialog from '../../components/FormDialog';
import { call } from '../../api/client';
import { campaignsIvr, campaignsIvrEdit, type IvrEdit } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useFormDialog from '../../hooks/useFormDialog';
import { emptyIvr, ivrBody, ivrToForm, newPin, parsePins, validateIvr } from '../../utils/ivrForm';
import { testId } from '../../components/testId';

/** The campaign whose settings are edited. */
export interface IvrCampaign {
  campaign_id: number;
  name: string;
}

interface IvrDialogProps {
  campaign: IvrCampaign;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function IvrDialog({ campaign, onClose, onSaved }: IvrDialogProps) {
  const { values, set, message, saving, field, reset, submit } = useFormDialog('ivr', emptyIvr());
  const [loadError, setLoadError] = useState('');
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let cancelled = false;
    call(campaignsIvr({ path: { id: campaign.campaign_id } }))
      .then((settings) => {
        if (cancelled) return;
        reset(ivrToForm(settings));
        setLoaded(true);
      })
      .catch(
        (err: unknown) => !cancelled && setLoadError(failureMessage(err, 'The IVR settings could not be loaded.'))
      );
    return () => {
      cancelled = true;
    };
  }, [campaign.campaign_id, reset]);

  const save = async () => {
    const result = await submit(
      validateIvr,
      async () =>
        // The generated IvrEdit spells the API's cross-field rules (PINs when on, each of the PIN
        // length) as a union a form's body can't show statically; the server checks them (422).
        (await campaignsIvrEdit({ body: ivrBody(campaign.campaign_id, values) as IvrEdit })).data,
      'The IVR settings could not be saved.'
    );
    if (result) onSaved(`IVR settings of ${campaign.name} saved.`);
  };

  const addPin = () => {
    const pins = parsePins(values.pins);
    set('pins', [...pins, newPin(values.ivr_digits, pins)].join(', '));
  };

  const pinCount = parsePins(values.pins).length;
  return (
    <FormDialog
      open
      name="ivr"
      title={`IVR authentication of ${campaign.name}`}
      message={message || loadError}
      saving={saving || !loaded}
      saveLabel="Save"
      onClose={onClose}
      onSave={save}
      maxWidth="md"
    >
      <Grid container spacing={2}>
        <Grid size={12}>
          <FormControlLabel
            control={
              <Switch
                checked={values.ivr_enabled}
                onChange={(e) => set('ivr_enabled', e.target.checked)}
                slotProps={{ input: { ...testId('ivr-enabled') } }}
              />
            }
            label="Callers must key a PIN before the call is routed"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('ivr_prompt', 'Prompt', {
              helperText: "Sound file Asterisk plays, without extension; blank: the platform's"
            })}
          />
        </Grid>
        <Grid size={{ xs: 6, sm: 3 }}>
          <TextField {...field('ivr_digits', 'PIN length', { helperText: '1 to 12 digits' })} />
        </Grid>
        <Grid size={{ xs: 6, sm: 3 }}>
          <TextField {...field('ivr_attempts', 'Attempts', { helperText: 'Tries before hang-up (1-10)' })} />
        </Grid>
        <Grid size={12}>
          <TextField
            {...field('pins', 'PINs', { helperText: `${pinCount} PIN(s); separate them by commas, spaces or lines` })}
            multiline
            minRows={3}
            maxRows={10}
          />
          <Button size="small" onClick={addPin} sx={{ mt: 1 }} data-testid="ivr-new-pin">
            Add a random PIN
          </Button>
        </Grid>
      </Grid>
    </FormDialog>
  );
}
