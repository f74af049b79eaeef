// Conversions back to Google Ads (docs/conversions.md): the converted calls a Google click brought,
// over a range of days, as the offline click conversions file Google Ads imports. The conversion
// name is remembered in this browser. Self-contained: open it from any page (the report's header).
import { useState } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import { conversionsGoogleAds } from '../client';
import { failureMessage } from '../hooks/apiFailure';
import {
  DEFAULT_CONVERSION_NAME,
  conversionsFilename,
  conversionsQuery,
  lastDays,
  validateConversions,
  type ConversionsForm
} from '../utils/conversionsExport';
import { saveCsv } from '../utils/download';
import { getItem, setItem } from '../utils/storage';
import type { FieldErrors } from '../utils/validation';
import FormDialog from './FormDialog';
import { CustomerPicker } from './NamePicker';
import { testId } from './testId';

const NAME_KEY = 'googleAdsConversionName';

interface ConversionsExportDialogProps {
  open: boolean;
  admin: boolean;
  onClose: () => void;
}

function initial(): ConversionsForm {
  const today = new Date().toISOString().slice(0, 10);
  return { ...lastDays(today, 7), conversionName: getItem(NAME_KEY) ?? DEFAULT_CONVERSION_NAME, userId: null };
}

export default function ConversionsExportDialog({ open, admin, onClose }: ConversionsExportDialogProps) {
  const [values, setValues] = useState<ConversionsForm>(initial);
  const [errors, setErrors] = useState<FieldErrors<keyof ConversionsForm>>({});
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);
  const set = (field: keyof ConversionsForm) => (e: { target: { value: string } }) =>
    setValues({ ...values, [field]: e.target.value });

  const download = async () => {
    const found = validateConversions(values, admin);
    setErrors(found);
    setMessage('');
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      const { data } = await conversionsGoogleAds({ query: conversionsQuery(values), responseType: 'text' });
      saveCsv(String(data), conversionsFilename(values));
      setItem(NAME_KEY, values.conversionName.trim());
      onClose();
    } catch (err) {
      setMessage(failureMessage(err, 'The conversions could not be exported.'));
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog
      open={open}
      name="conversions"
      title="Export conversions for Google Ads"
      message={message}
      saving={saving}
      saveLabel="Download CSV"
      onClose={onClose}
      onSave={download}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Converted calls whose visitor came from a Google ad click (gclid, gbraid or wbraid), in the customer&apos;s time
        zone, valued at the buyer&apos;s payout. Upload the file in Google Ads under Goals, Conversions, Uploads.
      </Typography>
      <Grid container spacing={2}>
        {admin && (
          <Grid size={12}>
            <CustomerPicker
              value={values.userId}
              onChange={(id) => setValues({ ...values, userId: id === '' ? null : id })}
              testid="conversions-customer"
              error={errors.userId}
            />
          </Grid>
        )}
        <Grid size={6}>
          <TextField
            label="From"
            type="date"
            size="small"
            fullWidth
            value={values.fromDate}
            onChange={set('fromDate')}
            error={Boolean(errors.fromDate)}
            helperText={errors.fromDate ?? ' '}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: testId('conversions-from') }}
          />
        </Grid>
        <Grid size={6}>
          <TextField
            label="To"
            type="date"
            size="small"
            fullWidth
            value={values.toDate}
            onChange={set('toDate')}
            error={Boolean(errors.toDate)}
            helperText={errors.toDate ?? ' '}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: testId('conversions-to') }}
          />
        </Grid>
        <Grid size={12}>
          <TextField
            label="Conversion name in Google Ads"
            size="small"
            fullWidth
            value={values.conversionName}
            onChange={set('conversionName')}
            error={Boolean(errors.conversionName)}
            helperText={errors.conversionName ?? 'Exactly as the conversion action is named in Google Ads'}
            slotProps={{ htmlInput: testId('conversions-name') }}
          />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
