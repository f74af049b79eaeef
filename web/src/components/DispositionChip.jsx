import Chip from '@mui/material/Chip';
import { callOutcome } from '../utils/report';

/** A call's disposition, or "in progress" while its row is not final. */
export default function DispositionChip({ call, ...props }) {
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
