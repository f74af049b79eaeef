import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ClockCircleOutlined } from '@ant-design/icons';

/** Clock in the user's timezone, 12-hour with AM/PM, ticking every second. */
export interface ClockProps {
  /** "hh:mm:ss AM", or a placeholder until the server time is known. */
  time: string;
  date: string;
  timezone: string;
  /** The zone's short name ("CET"): every time on the screens is in it. */
  abbreviation: string;
  ready: boolean;
}

export default function Clock({ time, date, timezone, abbreviation, ready }: ClockProps): ReactElement {
  return (
    <Tooltip title={ready ? `${date} · ${timezone}; every time shown is in this zone` : timezone}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75, px: 1 }}>
        <Box
          data-testid="header-clock"
          data-timezone={timezone}
          sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}
        >
          <ClockCircleOutlined style={{ fontSize: '1rem' }} />
          <Typography
            variant="body1"
            component="span"
            sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap', fontWeight: 500 }}
          >
            {time}
          </Typography>
        </Box>
        {abbreviation && (
          <Typography variant="caption" color="text.secondary" data-testid="header-zone" sx={{ whiteSpace: 'nowrap' }}>
            {abbreviation}
          </Typography>
        )}
      </Box>
    </Tooltip>
  );
}
