import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { AimOutlined, FileTextOutlined } from '@ant-design/icons';

/** Buyers' only shortcuts: Report (/buyercdr) and Target (/buyer-target). */
export default function BuyerShortcuts(): ReactElement {
  return (
    <Stack direction="row" spacing={1}>
      <Chip
        component={RouterLink}
        to="/buyercdr"
        clickable
        variant="combined"
        color="primary"
        icon={<FileTextOutlined />}
        label="Report"
        data-testid="buyer-chip-report"
      />
      <Chip
        component={RouterLink}
        to="/buyer-target"
        clickable
        variant="combined"
        color="success"
        icon={<AimOutlined />}
        label="Target"
        data-testid="buyer-chip-target"
      />
    </Stack>
  );
}
