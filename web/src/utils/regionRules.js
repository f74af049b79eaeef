// A target's or a campaign's caller-region settings (docs/regions.md) <-> the API's `region_rules`
// (portal_api/schemas/regions.py). Places are typed as "US:California", "GB" or "GB:London".

export const LINE_TYPES = [
  ['mobile', 'Mobile'],
  ['fixed', 'Fixed line'],
  ['other', 'Other (toll-free, VoIP, premium)'],
  ['unknown', 'Unknown']
];
export const REGION_MODES = [
  ['all', 'Every region'],
  ['accept', 'Only callers from these places'],
  ['exclude', 'Every caller but those from these places']
];
const PLACE = /^([A-Za-z]{2})(?::(.+))?$/;

/** The places typed in a box (commas or new lines between them), checked and normalised. */
export function parsePlaces(text) {
  const places = [];
  for (const raw of String(text ?? '').split(/[,\n]/)) {
    const typed = raw.trim();
    if (!typed) continue;
    const found = PLACE.exec(typed);
    if (!found) throw new Error(`"${typed}" is not a place like US, GB or US:California`);
    const place = found[2] ? `${found[1].toUpperCase()}:${found[2].trim()}` : found[1].toUpperCase();
    if (!places.includes(place)) places.push(place);
  }
  return places;
}

export function emptyTargetRules() {
  return { mode: 'all', places: '', line_types: [], accept_unknown: true };
}

export function targetRulesToForm(rules) {
  const r = rules ?? {};
  return {
    mode: r.mode ?? 'all',
    places: (r.regions ?? []).join(', '),
    line_types: r.excluded_line_types ?? [],
    accept_unknown: r.accept_unknown ?? true
  };
}

export function targetRulesBody(form) {
  const regions = form.mode === 'all' ? [] : parsePlaces(form.places);
  return {
    mode: form.mode,
    regions,
    excluded_line_types: [...form.line_types].sort(),
    accept_unknown: Boolean(form.accept_unknown)
  };
}

/** `{region_rules: message}` when the target's settings can't be sent, else `{}`. */
export function validateTargetRules(form) {
  try {
    if (form.mode !== 'all' && parsePlaces(form.places).length === 0)
      return { region_rules: 'List at least one place, or take every region' };
  } catch (err) {
    return { region_rules: err.message };
  }
  if (form.line_types.length === LINE_TYPES.length) return { region_rules: 'Excluding every line type takes no call' };
  return {};
}

export function emptyCampaignRules() {
  return { places: '', line_types: [], accept_unknown: true };
}

export function campaignRulesToForm(rules) {
  const r = rules ?? {};
  return {
    places: (r.blocked_regions ?? []).join(', '),
    line_types: r.blocked_line_types ?? [],
    accept_unknown: r.accept_unknown ?? true
  };
}

export function campaignRulesBody(form) {
  return {
    blocked_regions: parsePlaces(form.places),
    blocked_line_types: [...form.line_types].sort(),
    accept_unknown: Boolean(form.accept_unknown)
  };
}

export function validateCampaignRules(form) {
  try {
    parsePlaces(form.places);
  } catch (err) {
    return { region_rules: err.message };
  }
  return {};
}

/** The server's first error about the settings (`region_rules`, `region_rules.regions.0`...). */
export function rulesError(errors) {
  const key = Object.keys(errors ?? {}).find((k) => k === 'region_rules' || k.startsWith('region_rules.'));
  return key ? errors[key] : '';
}
