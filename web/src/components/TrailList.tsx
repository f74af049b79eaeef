// A call's routing trail (docs/routing.md): each decision, its result, when, and why. Shown in the
// call detail and by the routing dry run.
import Box from '@mui/material/Box';
import Chip, { type ChipProps } from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

import { trailDetails } from '../utils/report';
import { formatTimeOfDay } from '../utils/time';

/** One decision of a trail, as the API sends it (step, at, result, reason, and its own fields). */
export type TrailEntry = Record<string, unknown>;

const RESULT_COLOR: Record<string, ChipProps['color']> = {
  passed: 'success',
  candidate: 'info',
  ANSWER: 'success',
  skipped: 'warning',
  BUSY: 'warning',
  NOANSWER: 'warning',
  stopped: 'error',
  failed: 'error'
};

/** A trail field as text ('' when absent). */
const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

interface TrailListProps {
  trail: TrailEntry[] | null | undefined;
  timeZone: string;
}

export default function TrailList({ trail, timeZone }: TrailListProps) {
  const entries = trail ?? [];
  if (entries.length === 0) return <Typography color="text.secondary">No decisions were recorded.</Typography>;
  return (
    <Stack spacing={1.25} data-testid="call-trail">
      {entries.map((entry, i) => {
        const step = text(entry.step);
        const result = text(entry.result);
        const at = text(entry.at);
        const details: string[] = trailDetails(entry);
        return (
          <Box
            key={i}
            data-testid="trail-entry"
            data-step={step}
            sx={{ borderLeft: 3, borderColor: 'divider', pl: 1.5 }}
          >
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <Chip size="small" label={step} />
              {result && <Chip size="small" variant="light" color={RESULT_COLOR[result] ?? 'default'} label={result} />}
              <Typography variant="caption" color="text.secondary">
                {formatTimeOfDay(at, timeZone)}
              </Typography>
            </Stack>
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              {text(entry.reason)}
            </Typography>
            {details.length > 0 && (
              <Typography variant="caption" color="text.secondary">
                {details.join(' · ')}
              </Typography>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
