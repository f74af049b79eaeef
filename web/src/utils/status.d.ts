// Stand-in types for utils/status.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/status.ts lands.
/** The MUI Chip colours these helpers pick from. */
export type ChipColor = 'default' | 'success' | 'error' | 'warning' | 'info';
/** Catalogue rows (users, trunks...): active is green, inactive or blocked is red. */
export declare function statusColor(status: string | number | null | undefined): ChipColor;
/** A trunk's endpoint as the PBX bridge reports it ("Reachable (12 ms)", "Unreachable", ...). */
export declare function endpointColor(endpointStatus: string | null | undefined): ChipColor;
/** A live call's state: ringing, in the IVR, or talking. */
export declare function callStateColor(state: string | null | undefined): ChipColor;
