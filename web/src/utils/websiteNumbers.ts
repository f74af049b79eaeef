// A campaign's website numbers (docs/attribution.md): the script tag, the site origins as typed,
// and the pool's pressure as the panel says it.
import type { PoolPressure, SiteOut } from '../client';

/** The `<script>` tag for the customer's pages: the portal's public address, else `here` (the UI's). */
export const scriptTag = (site: SiteOut, here: string): string =>
  `<script async src="${site.public_url || here}${site.script_path}"></script>`;

/** Origins as typed: one a line (or separated by commas or spaces), blanks dropped. */
export const parseOrigins = (typed: string): string[] =>
  typed
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);

/** Sessions per pool number, one decimal; 0 for an empty pool. */
export const sessionsPerNumber = (pressure: PoolPressure, numbers: number): string =>
  numbers ? (pressure.sessions / numbers).toFixed(1) : '0';
