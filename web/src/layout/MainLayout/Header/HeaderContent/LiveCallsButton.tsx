import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { CustomerServiceOutlined } from '@ant-design/icons';
import { selectAllCalls, useLive } from '../../../../store/live';

/** Live calls: badge with callsCount.all_calls from the live store. */
export default function LiveCallsButton(): ReactElement {
  const allCalls = useLive(selectAllCalls);
  return (
    <Tooltip title="Live calls">
      <IconButton
        component={RouterLink}
        to="/live-calls"
        aria-label="Live calls"
        data-testid="header-live-calls"
        sx={{ color: 'text.primary' }}
      >
        <Badge badgeContent={allCalls} showZero max={999} color="success" data-testid="live-calls-badge">
          <CustomerServiceOutlined />
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
