import { describe, expect, it } from 'vitest';
import {
  BUYER_EVENTS,
  emptyWebhook,
  toggleEvent,
  validateWebhook,
  webhookBody,
  webhookToForm
} from '../utils/webhookForm';

describe('webhook form', () => {
  it('needs an http(s) URL whose tokens exist, and some events', () => {
    expect(validateWebhook(emptyWebhook())).toEqual({ url: 'URL is required' });
    expect(validateWebhook({ url: 'ftp://x.example.com', events: ['rated'] })).toEqual({
      url: 'Must be an http:// or https:// URL'
    });
    expect(validateWebhook({ url: 'https://x.example.com/?c={calller}', events: [] })).toEqual({
      url: '{calller} is no token',
      events: 'Choose at least one event'
    });
    expect(validateWebhook({ url: ' https://x.example.com/?c={caller}&p={payout} ', events: ['rated'] })).toEqual({});
  });

  it("keeps a buyer's webhook off incoming, which the buyer can't have", () => {
    expect(validateWebhook({ url: 'https://x.example.com', events: ['incoming'] }, { buyer: true })).toEqual({
      events: "A buyer's webhook can't take Incoming"
    });
    expect(BUYER_EVENTS.map(([v]) => v)).not.toContain('incoming');
  });

  it("keeps a buyer's webhook off attributed, where the customer's calls came from", () => {
    expect(validateWebhook({ url: 'https://x.example.com', events: ['attributed'] }, { buyer: true })).toEqual({
      events: "A buyer's webhook can't take Attributed"
    });
    expect(BUYER_EVENTS.map(([v]) => v)).not.toContain('attributed');
  });

  it('keeps the events in a call order whatever order they are ticked in', () => {
    let events = toggleEvent([], 'rated', true);
    events = toggleEvent(events, 'incoming', true);
    events = toggleEvent(events, 'connected', true);
    expect(events).toEqual(['incoming', 'connected', 'rated']);
    expect(toggleEvent(events, 'connected', false)).toEqual(['incoming', 'rated']);
  });

  it('names the campaign or buyer only for a new webhook', () => {
    const listed = { url: 'https://x.example.com', events: ['completed' as const], secret: 's' };
    const form = webhookToForm(listed);
    expect(webhookBody(form)).toEqual({ url: 'https://x.example.com', events: ['completed'] });
    expect(webhookBody({ ...form, url: ' https://y.example.com ' }, { campaign_id: 4 })).toEqual({
      campaign_id: 4,
      url: 'https://y.example.com',
      events: ['completed']
    });
  });
});
