// A call's transcript as lines to read: each side's words cut where the speaker paused, both sides
// in the order they spoke.
import type { LegTranscript } from '../client';

export interface TranscriptLine {
  leg: LegTranscript['leg'];
  start: number;
  text: string;
}

const PAUSE = 1.0; // seconds of silence that end a line
const LONGEST = 14; // words at most on a line

export function transcriptLines(legs: LegTranscript[]): TranscriptLine[] {
  const lines: TranscriptLine[] = [];
  for (const leg of legs) {
    let current: TranscriptLine | null = null;
    let words = 0;
    let end = 0;
    for (const w of leg.words) {
      if (!current || w.start - end > PAUSE || words >= LONGEST) {
        current = { leg: leg.leg, start: w.start, text: w.word };
        lines.push(current);
        words = 1;
      } else {
        current.text += ` ${w.word}`;
        words += 1;
      }
      end = w.end;
    }
  }
  return lines.sort((a, b) => a.start - b.start);
}
