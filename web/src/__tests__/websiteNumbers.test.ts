import { describe, expect, it } from 'vitest';

import { parseOrigins, scriptTag, sessionsPerNumber } from '../utils/websiteNumbers';

const site = { user_id: 2, script_key: 'k', origins: [], script_path: '/api/dni/k/script.js', public_url: '' };
const pressure = { sessions: 7, reused: 1, active: 2, peak_active: 3, needed: 4 };

describe('website numbers', () => {
  it('tags the script at the public address, else the UI’s own', () => {
    expect(scriptTag({ ...site, public_url: 'https://portal.example' }, 'http://localhost:5173')).toBe(
      '<script async src="https://portal.example/api/dni/k/script.js"></script>'
    );
    expect(scriptTag(site, 'http://localhost:5173')).toBe(
      '<script async src="http://localhost:5173/api/dni/k/script.js"></script>'
    );
  });

  it('reads origins one a line or separated by commas, blanks dropped', () => {
    expect(parseOrigins('https://a.example\n\n https://b.example, https://c.example ')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example'
    ]);
    expect(parseOrigins('  ')).toEqual([]);
  });

  it('says sessions per number, 0 for an empty pool', () => {
    expect(sessionsPerNumber(pressure, 2)).toBe('3.5');
    expect(sessionsPerNumber(pressure, 0)).toBe('0');
  });
});
