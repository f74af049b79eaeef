// Live feed over WebSocket (spec §7), served by the API at /api/ws; incoming messages go straight
// into the live store. VITE_LIVE_WS=false at build time turns it off. The token travels as a
// subprotocol (bearer.<token>), never in the URL, which servers and proxies log (docs/security.md).
import { API_BASE } from '../api/client';
import { applyLiveMessage, type LiveMessage } from './live';
import { isAdmin, isCustomer } from '../utils/roles';
import type { HasRole } from '../utils/roles';

/** What the client asks the feed for when the socket opens (spec §7). */
export interface LiveAction {
  action: string;
  userId?: number | null | undefined;
}

/** Who the feed is for: the stored user's role and id. */
export type LiveUser = HasRole & { user_id?: number | null };

/** What the client uses of a WebSocket (the browser's, or a test's fake). */
export interface LiveSocket {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent<string>) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface LiveConnection {
  token: string | null;
  user: LiveUser | null;
  WebSocketImpl?: (new (url: string, protocols: string[]) => LiveSocket) | undefined;
}

export const LIVE_WS_ENABLED = !(import.meta.env && import.meta.env.VITE_LIVE_WS === 'false');

export function liveSocketUrl(
  base: string = API_BASE,
  loc: Pick<Location, 'protocol' | 'host'> = window.location
): string {
  let url: string;
  if (/^https?:\/\//i.test(base)) url = base.replace(/^http/i, 'ws');
  else url = `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}${base}`;
  return `${url.replace(/\/$/, '')}/ws`;
}

/** The subprotocols the socket offers: the server answers `callroute` and reads the token from the other. */
export function liveSocketProtocols(token: string): string[] {
  return ['callroute', `bearer.${token}`];
}

/**
 * The actions a client sends when the socket opens (spec §7), and GET_BALANCE for a customer:
 * the feed then pushes its balance whenever money moves (a call rated, a fee, a top-up).
 */
export function liveActionsFor(user: LiveUser | null): LiveAction[] {
  if (isAdmin(user)) return [{ action: 'GET_LIVE_CALLS_BY_ADMIN' }, { action: 'GET_CALLS_COUNT_FOR_ADMIN' }];
  const userId = user?.user_id;
  return [
    { action: 'GET_LIVE_CALLS_BY_CUSTOMER', userId },
    { action: 'GET_CALLS_COUNT_FOR_COMPANY', userId },
    { action: 'GET_NOTIFICATION_COUNT', userId },
    ...(isCustomer(user) ? [{ action: 'GET_BALANCE', userId }] : [])
  ];
}

/** Connect with capped back-off reconnects. Returns a function that closes the socket. */
export function connectLive({ token, user, WebSocketImpl = globalThis.WebSocket }: LiveConnection): () => void {
  if (!token || !WebSocketImpl) return () => {};
  let socket: LiveSocket | null = null;
  let stopped = false;
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    if (stopped) return;
    const opened = new WebSocketImpl(liveSocketUrl(), liveSocketProtocols(token));
    socket = opened;
    opened.onopen = () => {
      retry = 0;
      for (const action of liveActionsFor(user)) opened.send(JSON.stringify(action));
    };
    opened.onmessage = (event) => {
      try {
        // The feed's JSON (spec §7): applyLiveMessage reads each field defensively.
        applyLiveMessage(JSON.parse(event.data) as LiveMessage);
      } catch (err) {
        console.error('Live feed: unreadable message', err);
      }
    };
    opened.onclose = () => {
      if (stopped) return;
      retry += 1;
      timer = setTimeout(open, Math.min(30000, 1000 * 2 ** Math.min(retry, 5)));
    };
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
