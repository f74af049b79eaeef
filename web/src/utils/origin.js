// Where callers are from, as the report and the dashboard show it (docs/regions.md).

/** "California, US"; "US, region unknown"; "Unknown" (withheld, invalid); "Not recorded" (old calls). */
export function originLabel({ country, region }) {
  if (country == null) return 'Not recorded';
  if (country === 'unknown') return 'Unknown';
  if (region == null) return country;
  return region === 'unknown' ? `${country}, region unknown` : `${region}, ${country}`;
}

/** The dashboard's bars: one per region, busiest first, with its answered calls. */
export function regionBars(slices) {
  return (slices ?? []).map((s) => ({ label: originLabel(s), Calls: s.calls, Answered: s.answered }));
}

/** The line types' share of calls: "mobile 12 · fixed 3". */
export function lineTypeSummary(slices) {
  return (slices ?? []).map((s) => `${s.line_type ?? 'not recorded'} ${s.calls}`).join(' · ');
}
