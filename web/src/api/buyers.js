// Buyers (spec §7 Buyers).
import entityApi from './entity';

export const buyers = entityApi('/buyer');
