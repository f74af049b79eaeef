// Where callers are from, as the report and the dashboard show it (docs/regions.md).
import type { OriginSlice } from '../client';

/** A caller's place as the API gives it on a call or a slice. */
export interface Origin {
  country?: string | null;
  region?: string | null;
}

export interface RegionBar {
  label: string;
  Calls: number;
  Answered: number;
}

/** "California, US"; "US, region unknown"; "Unknown" (withheld, invalid); "Not recorded" (old calls). */
export function originLabel({ country, region }: Origin): string {
  if (country == null) return 'Not recorded';
  if (country === 'unknown') return 'Unknown';
  if (region == null) return country;
  return region === 'unknown' ? `${country}, region unknown` : `${region}, ${country}`;
}

/** The dashboard's bars: one per region, busiest first, with its answered calls. */
export function regionBars(
  slices: readonly (Origin & Pick<OriginSlice, 'calls' | 'answered'>)[] | null | undefined
): RegionBar[] {
  return (slices ?? []).map((s) => ({ label: originLabel(s), Calls: s.calls, Answered: s.answered }));
}

/** The line types' share of calls: "mobile 12 · fixed 3". */
export function lineTypeSummary(
  slices: readonly Pick<OriginSlice, 'line_type' | 'calls'>[] | null | undefined
): string {
  return (slices ?? []).map((s) => `${s.line_type ?? 'not recorded'} ${s.calls}`).join(' · ');
}
