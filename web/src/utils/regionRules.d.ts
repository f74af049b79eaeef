// Stand-in types for utils/regionRules.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/regionRules.ts lands.
import type {
  CampaignRegionRules,
  CampaignRegionRulesOut,
  LineType,
  RegionMode,
  TargetRegionRulesOut
} from '../client';
import { type FieldErrors } from './validation';
export interface TargetRulesForm {
  mode: RegionMode;
  places: string;
  line_types: LineType[];
  accept_unknown: boolean;
}
export type CampaignRulesForm = Omit<TargetRulesForm, 'mode'>;
/** A target's `region_rules` as sent. */
export type TargetRulesBody = Required<TargetRegionRulesOut>;
type RulesErrors = FieldErrors<'region_rules'>;
export declare const LINE_TYPES: readonly (readonly [LineType, string])[];
export declare const REGION_MODES: readonly (readonly [RegionMode, string])[];
/** The places typed in a box (commas or new lines between them), checked and normalised. */
export declare function parsePlaces(text: string | null | undefined): string[];
export declare function emptyTargetRules(): TargetRulesForm;
export declare function targetRulesToForm(rules: TargetRegionRulesOut | null | undefined): TargetRulesForm;
export declare function targetRulesBody(form: TargetRulesForm): TargetRulesBody;
/** `{region_rules: message}` when the target's settings can't be sent, else `{}`. */
export declare function validateTargetRules(form: TargetRulesForm): RulesErrors;
export declare function emptyCampaignRules(): CampaignRulesForm;
export declare function campaignRulesToForm(rules: CampaignRegionRulesOut | null | undefined): CampaignRulesForm;
export declare function campaignRulesBody(form: CampaignRulesForm): Required<CampaignRegionRules>;
export declare function validateCampaignRules(form: CampaignRulesForm): RulesErrors;
/** The server's first error about the settings (`region_rules`, `region_rules.regions.0`...). */
export declare function rulesError(errors: FieldErrors | null | undefined): string;
export {};
