import { describe, expect, it } from 'vitest';

import { transcriptLines } from '../utils/transcript';

const word = (w: string, start: number) => ({ word: w, start, end: start + 0.4, confidence: 1 });

describe('transcriptLines', () => {
  it('cuts a side where its speaker paused and orders both sides by time', () => {
    const lines = transcriptLines([
      { leg: 'caller', engine: 'pocketsphinx', words: [word('book', 1), word('appointment', 1.5), word('please', 4)] },
      { leg: 'target', engine: 'pocketsphinx', words: [word('hello', 0.2), word('sure', 2.5)] }
    ]);
    expect(lines).toEqual([
      { leg: 'target', start: 0.2, text: 'hello' },
      { leg: 'caller', start: 1, text: 'book appointment' },
      { leg: 'target', start: 2.5, text: 'sure' },
      { leg: 'caller', start: 4, text: 'please' }
    ]);
  });
});
