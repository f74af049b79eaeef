// A call's routing trail (docs/routing.md): each decision, its result, when, and why. Shown in the
// call detail and by the routing dry run.
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

import { formatDateTime, trailDetails } from '../utils/report';

const RESULT_COLOR = {
  passed: 'success',
  candidate: 'info',
  ANSWER: 'success',
  skipped: 'warning',
  BUSY: 'warning',
  NOANSWER: 'warning',
  stopped: 'error',
  failed: 'error'
};

export default function TrailList({ trail, timeZone }) {
  const entries = trail ?? [];
  if (entries.length === 0) return <Typography color="text.secondary">No decisions were recorded.</Typography>;
  return (
    <Stack spacing={1.25} data-testid="call-trail">
      {entries.map((entry, i) => (
        <Box
          key={i}
          data-testid="trail-entry"
          data-step={entry.step}
          sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}
        >
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <Chip size="small" label={entry.step} />
            {entry.result && (
              <Chip size="small" variant="light" color={RESULT_COLOR[entry.result] ?? 'default'} label={entry.result} />
            )}
            <Typography variant="caption" color="text.secondary">
              {entry.at ? formatDateTime(entry.at, timeZone).slice(11) : ''}
            </Typography>
          </Stack>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {entry.reason}
          </Typography>
          {trailDetails(entry).length > 0 && (
            <Typography variant="caption" color="text.secondary">
              {trailDetails(entry).join(' · ')}
            </Typography>
          )}
        </Box>
      ))}
    </Stack>
  );
}
