// Stand-in types for utils/whisperForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/whisperForm.ts lands.
import type { WhisperMode, WhisperOut } from '../client';
import type { FieldErrors } from './validation';
export declare const MAX_TEXT = 200;
export declare const MAX_FILE_BYTES = 2000000;
export declare const MODES: readonly (readonly [WhisperMode, string])[];
export interface WhisperForm {
  mode: WhisperMode;
  text: string;
  file: File | null;
}
/** What saving sends: a new recording to upload, or the JSON body of PUT /campaign/whisper/{id}. */
export type WhisperRequest =
  | {
      upload: File;
    }
  | {
      body:
        | {
            mode: 'off';
          }
        | {
            mode: 'text';
            text: string;
          };
    };
export declare function whisperToForm(whisper: Pick<WhisperOut, 'mode' | 'text'> | null | undefined): WhisperForm;
/** `{field: message}` for what the server would refuse; `stored` is the whisper as saved. */
export declare function validateWhisper(
  values: WhisperForm,
  stored: Pick<WhisperOut, 'mode'> | null | undefined
): FieldErrors<keyof WhisperForm>;
/** What saving sends: `{upload: File}` for a new recording, else the JSON body (null: nothing to send). */
export declare function whisperRequest(values: WhisperForm): WhisperRequest | null;
/** The line the campaign list shows about its whisper. */
export declare function whisperSummary(
  whisper: Pick<WhisperOut, 'mode' | 'text' | 'seconds'> | null | undefined
): string;
