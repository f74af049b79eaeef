// A campaign's whisper: what its targets hear when they answer, before the caller is connected
// (spoken text or an uploaded WAV or MP3), with a preview of the audio the server made of it (the campaign
// page's Whisper tab).
import { useEffect, useEffectEvent, useState } from 'react';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import FormPanel from '../../components/FormPanel';
import { call, uploadHttp } from '../../api/client';
import {
  whisperAudio,
  whisperEdit,
  whisperShow,
  whisperUpload,
  type EnvelopeWhisperOut,
  type WhisperMode,
  type WhisperOut
} from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import {
  MAX_TEXT,
  MODES,
  validateWhisper,
  whisperRequest,
  whisperSummary,
  whisperToForm
} from '../../utils/whisperForm';
import { testId } from '../../components/testId';

/** The saved whisper and the server's word on it (or, nothing sent, the stored one). */
type Saved = Omit<EnvelopeWhisperOut, 'data'> & { data: WhisperOut | null };

interface WhisperPanelProps {
  campaign: { id: number; name: string };
}

export default function WhisperPanel({ campaign }: WhisperPanelProps) {
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('whisper', whisperToForm(null));
  const [stored, setStored] = useState<WhisperOut | null>(null);
  const [preview, setPreview] = useState('');
  const [notice, setNotice] = useState('');

  const show = async (whisper: WhisperOut | null) => {
    setStored(whisper);
    setPreview('');
    if (whisper?.audio_url) {
      const { data } = await whisperAudio({ path: { id: campaign.id }, responseType: 'blob' });
      setPreview(URL.createObjectURL(data));
    }
  };

  // The whisper as read: the form starts from it (the latest reset and show, without reading again).
  const opened = useEffectEvent((whisper: WhisperOut) => {
    reset(whisperToForm(whisper));
    void show(whisper);
  });

  useEffect(() => {
    void call(whisperShow({ path: { id: campaign.id } })).then(opened);
  }, [campaign.id]);

  const save = async () => {
    const request = whisperRequest(values);
    setNotice('');
    const saved = await submit(
      (v) => validateWhisper(v, stored),
      async (): Promise<Saved> => {
        if (!request) return { data: stored, message: 'Whisper unchanged.' };
        const answer =
          'upload' in request
            ? await whisperUpload({ path: { id: campaign.id }, body: { file: request.upload }, axios: uploadHttp })
            : await whisperEdit({ path: { id: campaign.id }, body: request.body });
        return answer.data;
      },
      'The whisper could not be saved.'
    );
    if (saved) {
      await show(saved.data);
      set('file', null);
      setNotice(`${saved.message} ${whisperSummary(saved.data)}.`);
    }
  };

  return (
    <FormPanel name="whisper" message={message} notice={notice} saving={saving} saveLabel="Save whisper" onSave={save}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary" data-testid="whisper-summary">
          {whisperSummary(stored)}
        </Typography>
        <RadioGroup
          row
          value={values.mode} // The DOM's value is one of MODES.
          onChange={(e) => set('mode', e.target.value as WhisperMode)}
        >
          {MODES.map(([mode, label]) => (
            <FormControlLabel
              key={mode}
              value={mode}
              label={label}
              control={<Radio slotProps={{ input: { ...testId(`whisper-mode-${mode}`) } }} />}
            />
          ))}
        </RadioGroup>
        {values.mode === 'text' && (
          <TextField
            {...field('text', 'What the target hears', {
              helperText: `${values.text.trim().length}/${MAX_TEXT} characters, spoken when you save, e.g. “Call from campaign ${campaign.name}”`
            })}
            multiline
            minRows={2}
          />
        )}
        {values.mode === 'recording' && (
          <Stack spacing={0.5}>
            <Button variant="outlined" component="label">
              {values.file ? values.file.name : 'Choose a WAV or MP3 file'}
              <input
                hidden
                type="file"
                accept=".wav,.mp3,audio/wav,audio/mpeg"
                data-testid="whisper-file"
                onChange={(e) => set('file', e.target.files?.[0] ?? null)}
              />
            </Button>
            <Typography variant="caption" color={errors.file ? 'error' : 'text.secondary'}>
              {errors.file || 'PCM WAV or MP3, up to 2 MB and 15 s; converted for the phone line when uploaded'}
            </Typography>
          </Stack>
        )}
        {preview && <audio controls src={preview} data-testid="whisper-preview" />}
      </Stack>
    </FormPanel>
  );
}
