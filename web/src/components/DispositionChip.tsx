import Chip, { type ChipProps } from '@mui/material/Chip';
import type { CallReportRow } from '../client';
import { callOutcome } from '../utils/report';

interface DispositionChipProps extends Omit<ChipProps, 'color' | 'label'> {
  /** A call report row or a live call: its disposition and whether it ended. */
  call: Pick<CallReportRow, 'disposition' | 'ended_at'> | null | undefined;
}

/** A call's disposition, or "in progress" while its row is not final. */
export default function DispositionChip({ call, ...props }: DispositionChipProps) {
  const { label, color } = callOutcome(call);
  return (
    <Chip
      size="small"
      variant="light"
      color={color}
      label={label}
      data-final={String(Boolean(call?.ended_at))}
      {...props}
    />
  );
}
