// The whisper dialog's values <-> the API's whisper (portal_api/schemas/whisper.py): off, typed text
// (spoken by the server when saved) or an uploaded WAV recording. The server checks everything again.
import type { WhisperMode, WhisperOut } from '../client';
import type { FieldErrors } from './validation';

export const MAX_TEXT = 200;
export const MAX_FILE_BYTES = 2_000_000;
export const MODES: readonly (readonly [WhisperMode, string])[] = [
  ['off', 'Off'],
  ['text', 'Spoken text'],
  ['recording', 'Uploaded recording']
];

export interface WhisperForm {
  mode: WhisperMode;
  text: string;
  file: File | null;
}

/** What saving sends: a new recording to upload, or the JSON body of PUT /campaign/whisper/{id}. */
export type WhisperRequest = { upload: File } | { body: { mode: 'off' } | { mode: 'text'; text: string } };

/** A whisper as the API answers it; the list's rows may carry only some of its fields. */
export type WhisperLike = Partial<Pick<WhisperOut, 'mode' | 'text' | 'seconds'>>;

export function whisperToForm(whisper: WhisperLike | null | undefined): WhisperForm {
  return { mode: whisper?.mode ?? 'off', text: whisper?.text ?? '', file: null };
}

/** `{field: message}` for what the server would refuse; `stored` is the whisper as saved. */
export function validateWhisper(values: WhisperForm, stored?: WhisperLike | null): FieldErrors<keyof WhisperForm> {
  const errors: FieldErrors<keyof WhisperForm> = {};
  const text = values.text.trim();
  if (values.mode === 'text' && !text) errors.text = 'Type what the target should hear';
  else if (values.mode === 'text' && text.length > MAX_TEXT)
    errors.text = `At most ${MAX_TEXT} characters (${text.length} now)`;
  if (values.mode === 'recording') {
    const file = values.file;
    if (!file && stored?.mode !== 'recording') errors.file = 'Choose a WAV file to upload';
    else if (file && !/\.wav$/i.test(file.name) && !/wav/.test(file.type))
      errors.file = 'The recording must be a WAV file';
    else if (file && file.size > MAX_FILE_BYTES) errors.file = `At most ${MAX_FILE_BYTES / 1_000_000} MB`;
  }
  return errors;
}

/** What saving sends: `{upload: File}` for a new recording, else the JSON body (null: nothing to send). */
export function whisperRequest(values: WhisperForm): WhisperRequest | null {
  if (values.mode === 'recording') return values.file ? { upload: values.file } : null;
  return values.mode === 'text' ? { body: { mode: 'text', text: values.text.trim() } } : { body: { mode: 'off' } };
}

/** The line the campaign list shows about its whisper. */
export function whisperSummary(whisper: WhisperLike | null | undefined): string {
  if (!whisper || whisper.mode === 'off') return 'No whisper: the target is connected as it answers';
  const length = whisper.seconds != null ? ` (${whisper.seconds.toFixed(1)} s)` : '';
  const what = whisper.mode === 'text' ? `“${whisper.text}”` : 'an uploaded recording';
  return `The target hears ${what}${length} before it is connected; talk time starts after it`;
}
