import { describe, expect, it } from 'vitest';
import { AVATAR_COLORS, avatarColor, avatarColorIndex, avatarLetter } from '../utils/avatar';

describe('avatar colour (spec §9)', () => {
  it('has 9 distinct fixed colours', () => {
    expect(AVATAR_COLORS).toHaveLength(9);
    expect(new Set(AVATAR_COLORS).size).toBe(9);
  });

  it('picks index = first char code % 9', () => {
    for (const name of ['Ada Admin', 'Bob', 'carla', 'Zoë', '1st Company', 'Émile', '李雷']) {
      expect(avatarColorIndex(name)).toBe(name.charCodeAt(0) % 9);
      expect(avatarColor(name)).toBe(AVATAR_COLORS[name.charCodeAt(0) % 9]);
    }
    expect(avatarColorIndex('A')).toBe(65 % 9); // 2
    expect(avatarColorIndex('a')).toBe(97 % 9); // 7
  });

  it('is stable for the same first letter', () => {
    expect(avatarColor('Alice')).toBe(avatarColor('Adam'));
  });

  it('handles empty names', () => {
    expect(avatarColorIndex('')).toBe(0);
    expect(avatarColor(undefined)).toBe(AVATAR_COLORS[0]);
    expect(avatarLetter('')).toBe('?');
  });

  it('shows the first letter, upper-cased', () => {
    expect(avatarLetter('carla customer')).toBe('C');
    expect(avatarLetter('  bob')).toBe('B');
  });
});
