// A target's or a campaign's caller-region settings (docs/regions.md) <-> the API's `region_rules`
// (portal_api/schemas/regions.py). Places are typed as "US:California", "GB" or "GB:London".

import type {
  CampaignRegionRules,
  CampaignRegionRulesOut,
  LineType,
  RegionMode,
  TargetRegionRulesOut
} from '../client';
import { type FieldErrors, thrownMessage } from './validation';

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

export const LINE_TYPES: readonly (readonly [LineType, string])[] = [
  ['mobile', 'Mobile'],
  ['fixed', 'Fixed line'],
  ['other', 'Other (toll-free, VoIP, premium)'],
  ['unknown', 'Unknown']
];
export const REGION_MODES: readonly (readonly [RegionMode, string])[] = [
  ['all', 'Every region'],
  ['accept', 'Only callers from these places'],
  ['exclude', 'Every caller but those from these places']
];
const PLACE = /^([A-Za-z]{2})(?::(.+))?$/;

/** The places typed in a box (commas or new lines between them), checked and normalised. */
export function parsePlaces(text: string | null | undefined): string[] {
  const places: string[] = [];
  for (const raw of String(text ?? '').split(/[,\n]/)) {
    const typed = raw.trim();
    if (!typed) continue;
    const found = PLACE.exec(typed);
    if (!found) throw new Error(`"${typed}" is not a place like US, GB or US:California`);
    const country = (found[1] ?? '').toUpperCase();
    const place = found[2] ? `${country}:${found[2].trim()}` : country;
    if (!places.includes(place)) places.push(place);
  }
  return places;
}

export function emptyTargetRules(): TargetRulesForm {
  return { mode: 'all', places: '', line_types: [], accept_unknown: true };
}

export function targetRulesToForm(rules: TargetRegionRulesOut | null | undefined): TargetRulesForm {
  const r = rules ?? {};
  return {
    mode: r.mode ?? 'all',
    places: (r.regions ?? []).join(', '),
    line_types: r.excluded_line_types ?? [],
    accept_unknown: r.accept_unknown ?? true
  };
}

export function targetRulesBody(form: TargetRulesForm): TargetRulesBody {
  const regions = form.mode === 'all' ? [] : parsePlaces(form.places);
  return {
    mode: form.mode,
    regions,
    excluded_line_types: [...form.line_types].sort(),
    accept_unknown: Boolean(form.accept_unknown)
  };
}

/** `{region_rules: message}` when the target's settings can't be sent, else `{}`. */
export function validateTargetRules(form: TargetRulesForm): RulesErrors {
  try {
    if (form.mode !== 'all' && parsePlaces(form.places).length === 0)
      return { region_rules: 'List at least one place, or take every region' };
  } catch (err) {
    return { region_rules: thrownMessage(err) };
  }
  if (form.line_types.length === LINE_TYPES.length) return { region_rules: 'Excluding every line type takes no call' };
  return {};
}

export function emptyCampaignRules(): CampaignRulesForm {
  return { places: '', line_types: [], accept_unknown: true };
}

export function campaignRulesToForm(rules: CampaignRegionRulesOut | null | undefined): CampaignRulesForm {
  const r = rules ?? {};
  return {
    places: (r.blocked_regions ?? []).join(', '),
    line_types: r.blocked_line_types ?? [],
    accept_unknown: r.accept_unknown ?? true
  };
}

export function campaignRulesBody(form: CampaignRulesForm): Required<CampaignRegionRules> {
  return {
    blocked_regions: parsePlaces(form.places),
    blocked_line_types: [...form.line_types].sort(),
    accept_unknown: Boolean(form.accept_unknown)
  };
}

export function validateCampaignRules(form: CampaignRulesForm): RulesErrors {
  try {
    parsePlaces(form.places);
  } catch (err) {
    return { region_rules: thrownMessage(err) };
  }
  return {};
}

/** The server's first error about the settings (`region_rules`, `region_rules.regions.0`...). */
export function rulesError(errors: FieldErrors | null | undefined): string {
  const key = Object.keys(errors ?? {}).find((k) => k === 'region_rules' || k.startsWith('region_rules.'));
  return key ? (errors?.[key] ?? '') : '';
}
