// Stand-in types for utils/ivrForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/ivrForm.ts lands.
import type { CampaignOut, IvrSettings } from '../client';
import type { FieldErrors } from './validation';
export declare const MAX_PINS = 1000;
export interface IvrForm {
  ivr_enabled: boolean;
  ivr_prompt: string;
  pins: string;
  ivr_digits: string;
  ivr_attempts: string;
}
/** PUT /ivr's body: a campaign's IVR settings. */
export type IvrBody = IvrSettings & {
  campaign_id: number;
};
export declare function emptyIvr(): IvrForm;
export declare function ivrToForm(settings: Partial<IvrSettings> | null | undefined): IvrForm;
/** PINs as typed (separated by commas, spaces or lines), without repeats. */
export declare function parsePins(text: string | null | undefined): string[];
/** `{field: message}` for what the server would refuse. */
export declare function validateIvr(values: IvrForm): FieldErrors<keyof IvrForm>;
export declare function ivrBody(campaignId: number | string, values: IvrForm): IvrBody;
/** A random PIN of `digits` digits, not one of `taken`. */
export declare function newPin(digits: number | string, taken?: readonly string[], random?: () => number): string;
/** Where a campaign's IVR settings are edited: the admin's /ivr or the customer's /user_ivr. */
export declare function ivrLink(campaign: Pick<CampaignOut, 'id' | 'name'>, admin: boolean): string;
