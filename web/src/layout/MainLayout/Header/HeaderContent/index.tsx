import { type ReactElement, useState } from 'react';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';

import BackToAdmin from './BackToAdmin';
import Balance from './Balance';
import Clock from './Clock';
import BuyerShortcuts from './BuyerShortcuts';
import LiveCallsButton from './LiveCallsButton';
import Notification from './Notification';
import SessionButtons from './SessionButtons';
import Profile from './Profile';
import MobileSection from './MobileSection';
import useBalance from '../../../../hooks/useBalance';
import useServerClock from '../../../../hooks/useServerClock';
import { isBuyer, isCustomer } from '../../../../utils/roles';
import { type SessionUser, isImpersonating } from '../../../../utils/storage';

interface HeaderContentProps {
  user: SessionUser | null;
  /** Below lg: the items move into the more-menu. */
  compact: boolean;
}

export default function HeaderContent({ user, compact }: HeaderContentProps): ReactElement {
  const buyer = isBuyer(user);
  const customer = isCustomer(user);
  const [impersonating] = useState(isImpersonating);

  // Lifted here so the more-menu can open and close without refetching.
  const balance = useBalance(user, { enabled: customer });
  const clock = useServerClock(user?.timezone, { enabled: !buyer });

  const items = (
    <>
      {customer && <Balance {...balance} />}
      {!buyer && <Clock {...clock} />}
      {buyer && <BuyerShortcuts />}
      {!buyer && <LiveCallsButton />}
      <Notification timezone={user?.timezone} />
      <SessionButtons />
      <Profile user={user} compact={compact} />
    </>
  );

  if (compact) {
    return (
      <>
        <Box sx={{ flexGrow: 1 }} />
        <MobileSection>
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{ alignItems: 'center', flexWrap: 'wrap', justifyContent: 'flex-end', rowGap: 1 }}
          >
            {impersonating && <BackToAdmin />}
            {items}
          </Stack>
        </MobileSection>
      </>
    );
  }

  return (
    <>
      {impersonating && <BackToAdmin />}
      <Box sx={{ flexGrow: 1 }} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="header-items">
        {items}
      </Stack>
    </>
  );
}
