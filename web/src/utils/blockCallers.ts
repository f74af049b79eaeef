// The report's bulk "Block callers": what the confirm step names and what the result says.
import type { BlockedCallers, CallReportRow } from '../client';

/** The distinct caller ids of the ticked calls, in the order first ticked (one block each). */
export function callersOf(calls: readonly Pick<CallReportRow, 'caller'>[]): string[] {
  return [...new Set(calls.map((c) => c.caller))];
}

/** The confirm step's question: who is blocked, and where (an admin's blocks cover every customer). */
export function blockQuestion(callers: readonly string[], admin: boolean): string {
  const who = callers.length === 1 ? callers[0] : `${callers.length} callers (${callers.join(', ')})`;
  const scope = admin ? "every customer's calls from them" : 'your calls from them';
  return `Block ${who}? From the next call, ${scope} are refused before any target rings.`;
}

/** The result, counted by the server: withheld caller ids can't be blocked and count as skipped. */
export function blockResult({ created, already_blocked }: BlockedCallers): string {
  const blocked = created === 1 ? '1 caller blocked' : `${created} callers blocked`;
  if (!already_blocked) return `${blocked}.`;
  return `${blocked}; ${already_blocked} skipped (already blocked, or no number to block).`;
}
