// Stand-in types for utils/rateForm.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/rateForm.ts lands.
import type { RateCreate, RateOut } from '../client';
import type { FieldErrors } from './validation';
export interface RateForm {
  prefix: string;
  country: string;
  rate_per_minute: string;
  connection_fee: string;
  initial_increment: string;
  billing_increment: string;
  min_duration: string;
  effective_from: string;
}
/** One line's problems in a refused import. */
export interface ImportProblem {
  line: number;
  problems: string[];
}
export declare function emptyRate(): RateForm;
/** Dates are edited as UTC `YYYY-MM-DD HH:MM` (rate cards are exchanged in UTC). */
export declare function utcMinute(iso: string | null | undefined): string;
export declare function rateToForm(r: RateOut): RateForm;
/** `{field: message}`: what the server would refuse, said before asking it. */
export declare function validateRate(values: RateForm): FieldErrors<keyof RateForm>;
export declare function rateBody(values: RateForm, tariffId: number): RateCreate;
/** "60/60": the first block and each one after, in seconds. */
export declare function increments(r: Pick<RateOut, 'initial_increment' | 'billing_increment'>): string;
export declare function ratesCsv(rows: readonly RateOut[]): string;
/** The import refusal's `errors` (`{"line 7": [...]}`) as rows `{line, problems}`, by line. */
export declare function importProblems(errors: Record<string, string[] | string> | null | undefined): ImportProblem[];
