import { describe, expect, it } from 'vitest';
import type { CampaignRegionRulesOut, TargetRegionRulesOut } from '../client';
import type { TargetRulesForm } from '../utils/regionRules';
import {
  LINE_TYPES,
  campaignRulesBody,
  campaignRulesToForm,
  emptyCampaignRules,
  emptyTargetRules,
  parsePlaces,
  rulesError,
  targetRulesBody,
  targetRulesToForm,
  validateCampaignRules,
  validateTargetRules
} from '../utils/regionRules';
import { lineTypeSummary, originLabel, regionBars } from '../utils/origin';
import { filterProblem } from '../utils/report';

describe('caller-region settings', () => {
  it('reads places typed with commas or new lines, upper-cases the country, drops repeats', () => {
    expect(parsePlaces(' us:California, gb\nGB , US:California ')).toEqual(['US:California', 'GB']);
    expect(parsePlaces('')).toEqual([]);
    expect(() => parsePlaces('USA')).toThrow('"USA" is not a place like US, GB or US:California');
    expect(() => parsePlaces('California')).toThrow('is not a place');
  });

  it("sends a target's settings: no places when it takes every region", () => {
    const form: TargetRulesForm = {
      mode: 'accept',
      places: 'US:California, GB',
      line_types: ['mobile'],
      accept_unknown: false
    };
    expect(targetRulesBody(form)).toEqual({
      mode: 'accept',
      regions: ['US:California', 'GB'],
      excluded_line_types: ['mobile'],
      accept_unknown: false
    });
    expect(targetRulesBody({ ...form, mode: 'all' }).regions).toEqual([]);
    expect(targetRulesBody(emptyTargetRules())).toEqual({
      mode: 'all',
      regions: [],
      excluded_line_types: [],
      accept_unknown: true
    });
  });

  it('starts an edit from the stored rules and back to the same body', () => {
    const stored: TargetRegionRulesOut = {
      mode: 'exclude',
      regions: ['GB:London'],
      excluded_line_types: ['other'],
      accept_unknown: true
    };
    expect(targetRulesBody(targetRulesToForm(stored))).toEqual(stored);
    expect(targetRulesToForm(undefined)).toEqual(emptyTargetRules());
    const blocks: CampaignRegionRulesOut = {
      blocked_regions: ['US:Texas'],
      blocked_line_types: ['mobile'],
      accept_unknown: false
    };
    expect(campaignRulesBody(campaignRulesToForm(blocks))).toEqual(blocks);
    expect(campaignRulesBody(emptyCampaignRules())).toEqual({
      blocked_regions: [],
      blocked_line_types: [],
      accept_unknown: true
    });
  });

  it('says what is wrong before sending, as the server would', () => {
    expect(validateTargetRules({ ...emptyTargetRules(), mode: 'accept' })).toEqual({
      region_rules: 'List at least one place, or take every region'
    });
    expect(validateTargetRules({ ...emptyTargetRules(), mode: 'exclude', places: 'Texas' })).toEqual({
      region_rules: '"Texas" is not a place like US, GB or US:California'
    });
    expect(validateTargetRules({ ...emptyTargetRules(), line_types: LINE_TYPES.map(([t]) => t) })).toEqual({
      region_rules: 'Excluding every line type takes no call'
    });
    expect(validateTargetRules(emptyTargetRules())).toEqual({});
    expect(validateCampaignRules({ ...emptyCampaignRules(), places: 'US:Texas, x' })).toEqual({
      region_rules: '"x" is not a place like US, GB or US:California'
    });
    expect(rulesError({ 'region_rules.regions.0': "'Californa' is not a region of US" })).toBe(
      "'Californa' is not a region of US"
    );
    expect(rulesError({ name: 'Name is required' })).toBe('');
  });
});

describe('caller origins in the report and the dashboard', () => {
  it('names where a caller is from, unknown and old rows included', () => {
    expect(originLabel({ country: 'US', region: 'California' })).toBe('California, US');
    expect(originLabel({ country: 'GB', region: 'unknown' })).toBe('GB, region unknown');
    expect(originLabel({ country: 'unknown', region: 'unknown' })).toBe('Unknown');
    expect(originLabel({ country: null, region: null })).toBe('Not recorded');
    expect(originLabel({ country: 'FR' })).toBe('FR');
  });

  it('turns the breakdown into bars and a line-type summary', () => {
    const slices = [{ country: 'GB', region: 'London', calls: 4, answered: 3 }];
    expect(regionBars(slices)).toEqual([{ label: 'London, GB', Calls: 4, Answered: 3 }]);
    expect(regionBars(undefined)).toEqual([]);
    expect(
      lineTypeSummary([
        { line_type: 'mobile', calls: 2 },
        { line_type: null, calls: 1 }
      ])
    ).toBe('mobile 2 · not recorded 1');
  });

  it('asks for the country with a region filter', () => {
    expect(filterProblem({ caller_region: 'California' })).toBe(
      'A caller region is named within its country: give the country too (e.g. US).'
    );
    expect(filterProblem({ caller_region: 'California', caller_country: 'US' })).toBe('');
  });
});
