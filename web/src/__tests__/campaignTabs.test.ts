import { describe, expect, it } from 'vitest';
import { campaignPath, tabOf } from '../utils/campaignTabs';

describe('campaign page address', () => {
  it('is the campaign, then its tab', () => {
    expect(campaignPath(12)).toBe('/campaign/12');
    expect(campaignPath(12, 'targets')).toBe('/campaign/12/targets');
  });

  it('shows the first tab without one, the named one, or none for an unknown name', () => {
    const tabs = ['settings', 'targets', 'ivr'];
    expect(tabOf(tabs, undefined)).toBe('settings');
    expect(tabOf(tabs, 'ivr')).toBe('ivr');
    expect(tabOf(tabs, 'keywords')).toBeNull();
  });
});
