import { describe, expect, it } from 'vitest';
import { type BlockForm, blockBody, blockScope, blockToForm, emptyBlock, validateBlock } from '../utils/blockForm';

describe('block dialog', () => {
  it('takes a number as people type it, and nothing else', () => {
    expect(validateBlock(emptyBlock())).toEqual({ pattern: 'Number is required' });
    expect(validateBlock({ ...emptyBlock(), pattern: '+1 (415) 555-0100' })).toEqual({});
    expect(validateBlock({ ...emptyBlock(), pattern: '0800 CALLME' })).toEqual({
      pattern: 'Digits only (with or without +), at most 15'
    });
    expect(validateBlock({ ...emptyBlock(), pattern: '1415', user_id: 'x' })).toEqual({
      user_id: 'A customer ID, or empty for every customer'
    });
  });

  it("sends the admin's customer only when one is named; an empty reason as none", () => {
    const values: BlockForm = { ...emptyBlock(), pattern: ' 1415 ', match_type: 'prefix', reason: ' ' };
    expect(blockBody(values, { admin: true })).toEqual({ pattern: '1415', match_type: 'prefix', reason: null });
    expect(blockBody({ ...values, user_id: '7' }, { admin: true }).user_id).toBe(7);
    expect(blockBody({ ...values, user_id: '7' }, { admin: true, editing: true })).not.toHaveProperty('user_id');
  });

  it('says who a block covers', () => {
    expect(blockScope({ user_id: null })).toBe('Every customer');
    expect(blockToForm({ pattern: '+14155550100', match_type: 'exact', reason: null, user_id: 2 })).toEqual({
      pattern: '+14155550100',
      match_type: 'exact',
      reason: '',
      user_id: '2'
    });
  });
});
