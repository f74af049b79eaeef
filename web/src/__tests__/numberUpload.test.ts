import { describe, expect, it } from 'vitest';
import { MAX_UPLOAD_ROWS, SAMPLE_CSV, countRows, sentPercent, uploadProblem } from '../utils/numberUpload';

const csv = (name: string, size = 100) => ({ name, size, type: 'text/csv' });
const HEADER = 'number,country,vendor,setup_fee,monthly_fee';

describe('number upload', () => {
  it('the sample file passes its own checks', () => {
    expect(uploadProblem(csv('sample.csv'), SAMPLE_CSV)).toBe('');
    expect(countRows(SAMPLE_CSV)).toBe(3);
  });

  it('refuses no file, another type, a big file and a wrong header before sending', () => {
    expect(uploadProblem(null, '')).toBe('Choose a CSV file first.');
    expect(uploadProblem({ name: 'n.xlsx', size: 10, type: 'application/vnd.ms-excel' }, SAMPLE_CSV)).toBe(
      'Upload a .csv file.'
    );
    expect(uploadProblem(csv('n.csv', 10_000_001), SAMPLE_CSV)).toBe('The file is larger than 10 MB.');
    expect(uploadProblem(csv('n.csv'), '\n\n')).toBe('The file is empty.');
    expect(uploadProblem(csv('n.csv'), 'number,country\n+442079460001,GB')).toMatch(
      /missing: vendor, setup_fee, monthly_fee\.$/
    );
    expect(uploadProblem(csv('n.csv'), `${HEADER}\n\n`)).toBe('The file has a header but no numbers.');
  });

  it('says the row cap, counting only non-blank data lines (a BOM and CRLF are fine)', () => {
    const lines = (n: number): string => Array.from({ length: n }, () => '+442079460001,GB,,0,0').join('\r\n');
    expect(uploadProblem(csv('n.csv'), `\uFEFF${HEADER}\r\n${lines(MAX_UPLOAD_ROWS)}\r\n\r\n`)).toBe('');
    expect(uploadProblem(csv('n.csv'), `${HEADER}\n${lines(MAX_UPLOAD_ROWS + 1)}`)).toBe(
      'The file has 100,001 numbers; a file takes at most 100,000; split it.'
    );
  });

  it('progress in percent', () => {
    expect(sentPercent({ loaded: 512, total: 1024 })).toBe(50);
    expect(sentPercent({ loaded: 5 })).toBe(0);
  });
});
