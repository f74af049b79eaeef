// Blocked callers (spec §7 Blocks).
import entityApi from './entity';

export const blocks = entityApi('/block');
