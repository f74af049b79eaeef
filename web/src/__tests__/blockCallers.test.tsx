import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';

import { http } from '../api/client';
import type { CallReportRow } from '../client';
import BlockCallers from '../pages/report/BlockCallers';
import { blockQuestion, blockResult, callersOf } from '../utils/blockCallers';
import { mockAdapter, nth, sentJson } from './helpers';

const row = (id: number, caller: string) => ({ id, caller }) as CallReportRow;

describe('block callers: words', () => {
  it('names each caller once, in the order ticked', () => {
    expect(callersOf([row(1, '+447700900123'), row(2, '+447700900124'), row(3, '+447700900123')])).toEqual([
      '+447700900123',
      '+447700900124'
    ]);
  });
  it("asks about the caller, and says an admin's block covers every customer", () => {
    expect(blockQuestion(['+447700900123'], false)).toMatch(/^Block \+447700900123\? .*your calls/);
    expect(blockQuestion(['+1', '+2'], true)).toMatch(/^Block 2 callers \(\+1, \+2\)\? .*every customer's calls/);
  });
  it('says what the server did, skipped ones included', () => {
    expect(blockResult({ created: 1, already_blocked: 0 })).toBe('1 caller blocked.');
    expect(blockResult({ created: 2, already_blocked: 1 })).toBe(
      '2 callers blocked; 1 skipped (already blocked, or no number to block).'
    );
  });
});

describe('BlockCallers', () => {
  it('is disabled with nothing ticked', () => {
    render(<BlockCallers calls={[]} admin={false} onDone={vi.fn()} onProblem={vi.fn()} />);
    expect(screen.getByTestId('report-block-callers')).toHaveProperty('disabled', true);
  });

  it('asks first, sends the ticked calls only when confirmed, and reports the result', async () => {
    const sent = mockAdapter(http, () => ({ data: { message: 'ok', data: { created: 1, already_blocked: 1 } } }));
    const onDone = vi.fn();
    const calls = [row(7, '+447700900123'), row(8, 'anonymous')];
    render(<BlockCallers calls={calls} admin={false} onDone={onDone} onProblem={vi.fn()} />);
    fireEvent.click(screen.getByText('Block callers (2 selected)'));
    expect(screen.getByTestId('confirm-dialog').textContent).toContain('+447700900123, anonymous');
    expect(sent).toHaveLength(0);

    fireEvent.click(screen.getByText('Cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(sent).toHaveLength(0);

    fireEvent.click(screen.getByTestId('report-block-callers'));
    fireEvent.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(blockResult({ created: 1, already_blocked: 1 })));
    expect(sent).toHaveLength(1);
    expect(nth(sent).url).toBe('/api/block/cdr');
    expect(sentJson(nth(sent))).toEqual({ call_ids: [7, 8] });
  });

  it("shows the server's refusal as the problem", async () => {
    mockAdapter(http, () => ({ status: 404, data: { message: 'Call 9 not found.' } }));
    const onProblem = vi.fn();
    render(<BlockCallers calls={[row(9, '+447700900123')]} admin onDone={vi.fn()} onProblem={onProblem} />);
    fireEvent.click(screen.getByTestId('report-block-callers'));
    fireEvent.click(screen.getByTestId('confirm-button'));
    await waitFor(() => expect(onProblem).toHaveBeenCalledWith('Call 9 not found.'));
  });
});
