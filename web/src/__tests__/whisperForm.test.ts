import { describe, expect, it } from 'vitest';
import { type WhisperForm, validateWhisper, whisperRequest, whisperSummary, whisperToForm } from '../utils/whisperForm';

const wavFile = (size = 1000, name = 'hello.wav', type = 'audio/wav'): File =>
  new File([new Uint8Array(size)], name, { type });

describe('whisper dialog', () => {
  it('starts from the stored whisper, or off', () => {
    expect(whisperToForm(null)).toEqual({ mode: 'off', text: '', file: null });
    expect(whisperToForm({ mode: 'text', text: 'Call from Acme' })).toEqual({
      mode: 'text',
      text: 'Call from Acme',
      file: null
    });
  });

  it('spoken text is required and at most 200 characters', () => {
    expect(validateWhisper({ mode: 'text', text: '  ', file: null })).toEqual({
      text: 'Type what the target should hear'
    });
    expect(validateWhisper({ mode: 'text', text: 'x'.repeat(201), file: null }).text).toBe(
      'At most 200 characters (201 now)'
    );
    expect(validateWhisper({ mode: 'text', text: 'Call from Acme', file: null })).toEqual({});
    expect(validateWhisper({ mode: 'off', text: '', file: null })).toEqual({});
  });

  it('a recording needs a WAV file of at most 2 MB, unless one is already stored', () => {
    const recording = (file: File | null): WhisperForm => ({ mode: 'recording', text: '', file });
    expect(validateWhisper(recording(null))).toEqual({ file: 'Choose a WAV file to upload' });
    expect(validateWhisper(recording(null), { mode: 'recording' })).toEqual({});
    expect(validateWhisper(recording(wavFile(10, 'song.mp3', 'audio/mpeg'))).file).toBe(
      'The recording must be a WAV file'
    );
    expect(validateWhisper(recording(wavFile(2_000_001))).file).toBe('At most 2 MB');
    expect(validateWhisper(recording(wavFile()))).toEqual({});
  });

  it('sends text trimmed, off as off, a new file as an upload, and nothing for a kept recording', () => {
    expect(whisperRequest({ mode: 'text', text: ' Call from Acme ', file: null })).toEqual({
      body: { mode: 'text', text: 'Call from Acme' }
    });
    expect(whisperRequest({ mode: 'off', text: 'kept', file: null })).toEqual({ body: { mode: 'off' } });
    const file = wavFile();
    expect(whisperRequest({ mode: 'recording', text: '', file })).toEqual({ upload: file });
    expect(whisperRequest({ mode: 'recording', text: '', file: null })).toBe(null);
  });

  it('says what the target hears and that talk time starts after it', () => {
    expect(whisperSummary({ mode: 'off' })).toBe('No whisper: the target is connected as it answers');
    expect(whisperSummary({ mode: 'text', text: 'Call from Acme', seconds: 1.46 })).toBe(
      'The target hears “Call from Acme” (1.5 s) before it is connected; talk time starts after it'
    );
  });
});
