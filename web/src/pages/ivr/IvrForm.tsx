// A campaign's IVR authentication as a form, shared by the IVR Auth screens' dialog and the campaign
// page's IVR tab: its state, read afresh from the server, and save (useIvrForm), and its fields.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';

import { testId } from '../../components/testId';
import { call } from '../../api/client';
import { campaignsIvr, campaignsIvrEdit, type IvrEdit } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useFormDialog from '../../hooks/useFormDialog';
import { emptyIvr, ivrBody, ivrToForm, newPin, parsePins, validateIvr } from '../../utils/ivrForm';
import PromptPicker from './PromptPicker';

/** Campaign `campaignId`'s IVR settings; `save()` answers true when saved. */
export function useIvrForm(campaignId: number) {
  const form = useFormDialog('ivr', emptyIvr());
  const { values, reset, submit } = form;
  const [loadError, setLoadError] = useState('');
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let cancelled = false;
    call(campaignsIvr({ path: { id: campaignId } }))
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
  }, [campaignId, reset]);

  const save = async () =>
    Boolean(
      await submit(
        validateIvr,
        async () =>
          // The generated IvrEdit spells the API's cross-field rules (PINs when on, each of the PIN
          // length) as a union a form's body can't show statically; the server checks them (422).
          (await campaignsIvrEdit({ body: ivrBody(campaignId, values) as IvrEdit })).data,
        'The IVR settings could not be saved.'
      )
    );

  return { ...form, loadError, loaded, save };
}

interface IvrFieldsProps {
  campaignId: number;
  form: ReturnType<typeof useIvrForm>;
}

export function IvrFields({ campaignId, form }: IvrFieldsProps) {
  const { values, set, errors, field } = form;
  const addPin = () => {
    const pins = parsePins(values.pins);
    set('pins', [...pins, newPin(values.ivr_digits, pins)].join(', '));
  };
  const pinCount = parsePins(values.pins).length;
  return (
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
      <Grid size={12}>
        <PromptPicker
          campaignId={campaignId}
          value={values.ivr_prompt}
          onChange={(prompt) => set('ivr_prompt', prompt)}
          error={errors.ivr_prompt}
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
  );
}
