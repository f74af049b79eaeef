// Stand-in types for utils/campaignForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/campaignForm.ts lands.
import type { CampaignIn, CampaignOut, DuplicateAction, RoutingStrategy } from '../client';
import type { FieldErrors } from './validation';
export interface CampaignForm {
  name: string;
  user_id: string;
  strategy: RoutingStrategy;
  ring_timeout: string;
  buffer_seconds: string;
  duplicate_window_seconds: string;
  duplicate_action: DuplicateAction;
  record: boolean;
}
/** A target's place in a campaign, as typed. */
export interface TargetOrder {
  priority: string | number;
  weight: string | number;
}
export declare const STRATEGIES: readonly (readonly [RoutingStrategy, string])[];
export declare const DUPLICATE_ACTIONS: readonly (readonly [DuplicateAction, string])[];
export declare function emptyCampaign(): CampaignForm;
export declare function campaignToForm(
  c: Pick<
    CampaignOut,
    | 'name'
    | 'user_id'
    | 'strategy'
    | 'ring_timeout'
    | 'buffer_seconds'
    | 'duplicate_window_seconds'
    | 'duplicate_action'
    | 'record'
  >
): CampaignForm;
/** `{field: message}`; an admin creating a campaign names the customer it is for. */
export declare function validateCampaign(
  values: CampaignForm,
  {
    needsOwner
  }?: {
    needsOwner?: boolean;
  }
): FieldErrors<keyof CampaignForm>;
/** The request body: a new campaign may name its owner (admin); an edit never moves it. */
export declare function campaignBody(
  values: CampaignForm,
  {
    editing,
    admin
  }?: {
    editing?: boolean;
    admin?: boolean;
  }
): CampaignIn;
/** A target's place in a campaign: `''` when fine, else what is wrong (the API's ranges). */
export declare function orderProblem({ priority, weight }: TargetOrder): string;
