// Stand-in types for store/liveSocket.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once store/liveSocket.ts lands.
import type { SessionUser } from '../utils/storage';
/** What the client asks the feed for when the socket opens (spec §7). */
export interface LiveAction {
  action: string;
  userId?: number | null | undefined;
}
export interface LiveConnection {
  token: string | null;
  user: SessionUser | null;
  WebSocketImpl?: typeof WebSocket | undefined;
}
export declare const LIVE_WS_ENABLED: boolean;
export declare function liveSocketUrl(base?: string, loc?: Pick<Location, 'protocol' | 'host'>): string;
/** The subprotocols the socket offers: the server answers `callroute` and reads the token from the other. */
export declare function liveSocketProtocols(token: string): string[];
/**
 * The actions a client sends when the socket opens (spec §7), and GET_BALANCE for a customer:
 * the feed then pushes its balance whenever money moves (a call rated, a fee, a top-up).
 */
export declare function liveActionsFor(user: SessionUser | null): LiveAction[];
/** Connect with capped back-off reconnects. Returns a function that closes the socket. */
export declare function connectLive({ token, user, WebSocketImpl }: LiveConnection): () => void;
