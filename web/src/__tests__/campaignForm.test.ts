import { describe, expect, it } from 'vitest';
import { campaignBody, campaignToForm, emptyCampaign, orderProblem, validateCampaign } from '../utils/campaignForm';

describe('campaign dialog', () => {
  it('needs a name, and an admin names the customer', () => {
    expect(validateCampaign(emptyCampaign())).toEqual({ name: 'Name is required' });
    expect(validateCampaign({ ...emptyCampaign(), name: 'Leads' }, { needsOwner: true })).toEqual({
      user_id: 'Customer ID is required'
    });
  });

  it('keeps the timers inside what the server accepts', () => {
    const errors = validateCampaign({
      ...emptyCampaign(),
      name: 'Leads',
      ring_timeout: '4',
      buffer_seconds: '-1',
      duplicate_window_seconds: String(91 * 86400)
    });
    expect(errors).toEqual({
      ring_timeout: 'Ring timeout must be a whole number from 5 to 300',
      buffer_seconds: 'Buffer must be a whole number from 0 to 86400',
      duplicate_window_seconds: 'Duplicate window must be a whole number from 0 to 7776000'
    });
  });

  it('sends numbers, names the owner only when an admin creates one', () => {
    const values = { ...emptyCampaign(), name: ' Leads ', user_id: '7', record: true };
    expect(campaignBody(values, { admin: true })).toMatchObject({
      name: 'Leads',
      user_id: 7,
      ring_timeout: 30,
      record: true
    });
    expect('user_id' in campaignBody(values)).toBe(false);
    expect('user_id' in campaignBody(values, { admin: true, editing: true })).toBe(false);
  });

  it('edits start from the listed campaign', () => {
    const listed = {
      id: 3,
      user_id: 7,
      name: 'Solar',
      strategy: 'round_robin',
      ring_timeout: 20,
      buffer_seconds: 90,
      duplicate_window_seconds: 3600,
      duplicate_action: 'reject',
      record: false
    } as const;
    expect(campaignBody(campaignToForm(listed), { editing: true })).toEqual({
      name: 'Solar',
      strategy: 'round_robin',
      ring_timeout: 20,
      buffer_seconds: 90,
      duplicate_window_seconds: 3600,
      duplicate_action: 'reject',
      record: false
    });
  });

  it("checks a target's priority and weight within the campaign", () => {
    expect(orderProblem({ priority: '1', weight: '1000' })).toBe('');
    expect(orderProblem({ priority: '0', weight: '5' })).toBe('Priority must be a whole number from 1 to 100');
    expect(orderProblem({ priority: '2', weight: '1.5' })).toBe('Weight must be a whole number from 1 to 1000');
  });
});
