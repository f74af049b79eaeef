import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import RegionRulesFields from '../components/RegionRulesFields';
import { emptyCampaignRules, emptyTargetRules } from '../utils/regionRules';

describe('the caller-region fields', () => {
  it("a target's places show once it restricts regions; line types and unknown toggle", () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <RegionRulesFields kind="target" value={emptyTargetRules()} onChange={onChange} error="" />
    );
    expect(screen.queryByTestId('target-region-places')).toBeNull(); // every region: nothing to list
    fireEvent.click(screen.getByTestId('target-line-mobile'));
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyTargetRules(), line_types: ['mobile'] });
    fireEvent.click(screen.getByTestId('target-accept-unknown'));
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyTargetRules(), accept_unknown: false });
    rerender(
      <RegionRulesFields
        kind="target"
        value={{ ...emptyTargetRules(), mode: 'exclude' }}
        onChange={onChange}
        error="'Californa' is not a region of US"
      />
    );
    fireEvent.change(screen.getByTestId('target-region-places'), { target: { value: 'GB:London' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyTargetRules(), mode: 'exclude', places: 'GB:London' });
    expect(screen.getByText("'Californa' is not a region of US")).toBeTruthy();
  });

  it('a campaign lists the places it blocks, with no mode', () => {
    const onChange = vi.fn();
    render(
      <RegionRulesFields
        kind="campaign"
        value={{ ...emptyCampaignRules(), line_types: ['other'] }}
        onChange={onChange}
        error=""
      />
    );
    expect(screen.queryByTestId('target-region-mode')).toBeNull();
    fireEvent.change(screen.getByTestId('campaign-region-places'), { target: { value: 'US:Texas' } });
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyCampaignRules(), line_types: ['other'], places: 'US:Texas' });
    fireEvent.click(screen.getByTestId('campaign-line-other'));
    expect(onChange).toHaveBeenLastCalledWith({ ...emptyCampaignRules(), line_types: [] });
  });
});
