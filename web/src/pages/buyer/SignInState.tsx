// Whether this buyer can sign in (docs/security.md, "Adding a buyer"): no sign-in yet, an
// invitation out (since when), or a sign-in with its own password.
import Chip from '@mui/material/Chip';

import type { BuyerOut } from '../../client';
import { formatDateTime } from '../../utils/time';

/** The state in words, as the row and the edit form say it. */
export function signInText(buyer: Pick<BuyerOut, 'sign_in' | 'invited_at'>, timezone?: string | null): string {
  if (buyer.sign_in === 'active') return 'Can sign in';
  if (buyer.sign_in === 'invited') return `Invitation sent ${formatDateTime(buyer.invited_at, timezone)}`;
  return 'No sign-in yet';
}

export default function SignInState({ buyer, timezone }: { buyer: BuyerOut; timezone?: string | null | undefined }) {
  const color = buyer.sign_in === 'active' ? 'success' : 'warning';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      label={signInText(buyer, timezone)}
      data-testid="buyer-sign-in"
      data-state={buyer.sign_in}
    />
  );
}
