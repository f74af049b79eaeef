// Stand-in types for utils/origin.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/origin.ts lands.
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
export declare function originLabel({ country, region }: Origin): string;
/** The dashboard's bars: one per region, busiest first, with its answered calls. */
export declare function regionBars(slices: readonly OriginSlice[] | null | undefined): RegionBar[];
/** The line types' share of calls: "mobile 12 · fixed 3". */
export declare function lineTypeSummary(slices: readonly OriginSlice[] | null | undefined): string;
