// What a campaign's IVR callers hear before they key a PIN: one of Asterisk's core prompts or one
// the customer uploaded (GET /campaign/prompt/{id}), or a WAV or MP3 uploaded here, converted by the server
// to what Asterisk plays, and chosen at once (saved with the IVR settings).
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';

import { SelectField, type SelectOption } from '../../components/FormDialog';
import { call, uploadHttp } from '../../api/client';
import { promptsOptions, promptsUpload, type PromptOption } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';

const PLATFORM = "The platform's (agent-pass)";

interface PromptPickerProps {
  campaignId: number;
  value: string;
  onChange: (value: string) => void;
  error?: string;
}

/** The select's options: the platform's first, and a value chosen before but no longer listed. */
export function promptChoices(options: readonly PromptOption[], value: string): SelectOption[] {
  const listed: SelectOption[] = options.map((o) => [
    o.value,
    o.kind === 'upload' ? `Uploaded: ${o.label} (${(o.seconds ?? 0).toFixed(1)} s)` : o.label
  ]);
  const unlisted = value && !options.some((o) => o.value === value) ? [[value, value] as const] : [];
  return [['', PLATFORM], ...unlisted, ...listed];
}

export default function PromptPicker({ campaignId, value, onChange, error }: PromptPickerProps) {
  const [options, setOptions] = useState<PromptOption[]>([]);
  const [problem, setProblem] = useState('');
  const [uploading, setUploading] = useState(false);

  useEffect(() => {
    let alive = true;
    call(promptsOptions({ path: { id: campaignId } }))
      .then((found) => alive && setOptions(found))
      .catch((err: unknown) => alive && setProblem(failureMessage(err, 'The prompts could not be loaded.')));
    return () => {
      alive = false;
    };
  }, [campaignId]);

  const upload = async (file: File) => {
    setProblem('');
    setUploading(true);
    try {
      const added = await call(promptsUpload({ path: { id: campaignId }, body: { file }, axios: uploadHttp }));
      setOptions((now) => [...now.filter((o) => o.value !== added.value), added]);
      onChange(added.value);
    } catch (err) {
      setProblem(failureMessage(err, 'The prompt could not be uploaded.'));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
      <SelectField
        label="Prompt"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        options={promptChoices(options, value)}
        size="small"
        fullWidth
        error={Boolean(error || problem)}
        helperText={error || problem || 'What callers hear before they key their PIN'}
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        data-testid="ivr-prompt"
      />
      <Button variant="outlined" component="label" disabled={uploading} sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}>
        {uploading ? 'Uploading…' : 'Upload a prompt'}
        <input
          hidden
          type="file"
          accept=".wav,.mp3,audio/wav,audio/mpeg"
          data-testid="ivr-prompt-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = ''; // the same file again is a new choice
            if (file) void upload(file);
          }}
        />
      </Button>
    </Stack>
  );
}
