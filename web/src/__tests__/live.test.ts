import { beforeEach, describe, expect, it } from 'vitest';
import { nth } from './helpers';
import {
  applyLiveMessage,
  getLiveState,
  resetLive,
  selectAllCalls,
  selectBalance,
  selectUnreadCount,
  setUnreadNotificationCount
} from '../store/live';
import { connectLive, liveActionsFor, liveSocketProtocols, liveSocketUrl, type LiveSocket } from '../store/liveSocket';

describe('live store (slice livecalls)', () => {
  beforeEach(() => resetLive());

  it('starts empty with zero counts', () => {
    expect(getLiveState()).toEqual({
      livecalls: [],
      callsCount: { all_calls: 0 },
      unread_notification_count: 0,
      balance: null
    });
    expect(selectAllCalls(getLiveState())).toBe(0);
  });

  it('applies live messages carrying any of the three fields', () => {
    applyLiveMessage({ callsCount: { all_calls: 4, live: 2 } });
    expect(selectAllCalls(getLiveState())).toBe(4);
    applyLiveMessage({ livecalls: [{ id: 1 }] });
    expect(getLiveState().livecalls).toEqual([{ id: 1 }]);
    expect(selectAllCalls(getLiveState())).toBe(4);
    applyLiveMessage({ unread_notification_count: 7 });
    expect(selectUnreadCount(getLiveState())).toBe(7);
    applyLiveMessage(null);
    expect(selectUnreadCount(getLiveState())).toBe(7);
  });

  it('sets the unread count from the REST call', () => {
    setUnreadNotificationCount('3');
    expect(selectUnreadCount(getLiveState())).toBe(3);
  });
});

describe('live socket plumbing', () => {
  it('builds the ws URL under the API base', () => {
    expect(liveSocketUrl('/api', { protocol: 'https:', host: 'portal.example' })).toBe('wss://portal.example/api/ws');
    expect(liveSocketUrl('http://localhost:8000/api/', { protocol: 'http:', host: 'x' })).toBe(
      'ws://localhost:8000/api/ws'
    );
  });

  it('sends the token as a subprotocol, never in the URL (servers and proxies log URLs)', () => {
    const opened: { url: string; protocols: string[] }[] = [];
    class FakeSocket implements LiveSocket {
      onopen = null;
      onmessage = null;
      onclose = null;
      constructor(url: string, protocols: string[]) {
        opened.push({ url, protocols });
      }
      send(): void {}
      close(): void {}
    }
    const stop = connectLive({ token: 'cr_secret-1', user: { role: 2, user_id: 9 }, WebSocketImpl: FakeSocket });
    stop();
    expect(opened).toHaveLength(1);
    expect(nth(opened).url).not.toContain('cr_secret-1');
    expect(nth(opened).protocols).toEqual(liveSocketProtocols('cr_secret-1'));
    expect(liveSocketProtocols('cr_secret-1')).toEqual(['callroute', 'bearer.cr_secret-1']);
  });

  it('sends the admin or customer actions', () => {
    expect(liveActionsFor({ role: 1, user_id: 1 }).map((a) => a.action)).toEqual([
      'GET_LIVE_CALLS_BY_ADMIN',
      'GET_CALLS_COUNT_FOR_ADMIN'
    ]);
    expect(liveActionsFor({ role: 2, user_id: 9 })).toEqual([
      { action: 'GET_LIVE_CALLS_BY_CUSTOMER', userId: 9 },
      { action: 'GET_CALLS_COUNT_FOR_COMPANY', userId: 9 },
      { action: 'GET_NOTIFICATION_COUNT', userId: 9 },
      { action: 'GET_BALANCE', userId: 9 }
    ]);
    expect(liveActionsFor({ role: 3, user_id: 4 }).map((a) => a.action)).not.toContain('GET_BALANCE');
  });

  it('keeps the balance the feed pushes', () => {
    applyLiveMessage({ balance: { user_id: 9, balance: '112.5000', currency: 'USD' } });
    expect(selectBalance(getLiveState())).toEqual({ user_id: 9, balance: '112.5000', currency: 'USD' });
    applyLiveMessage({ callsCount: { all_calls: 1 } });
    expect(selectBalance(getLiveState())?.balance).toBe('112.5000');
  });
});
