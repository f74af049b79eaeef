import { type ReactElement, useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { RollbackOutlined } from '@ant-design/icons';
import { returnToAdmin } from '../../../../api/auth';

export default function BackToAdmin(): ReactElement {
  const [busy, setBusy] = useState(false);
  const onClick = async (): Promise<void> => {
    setBusy(true);
    const ok = await returnToAdmin();
    if (!ok) setBusy(false);
  };
  return (
    <Button
      variant="shadow"
      color="warning"
      size="small"
      onClick={() => void onClick()}
      disabled={busy}
      data-testid="back-to-admin"
      startIcon={busy ? <CircularProgress size={14} color="inherit" /> : <RollbackOutlined />}
      sx={{ whiteSpace: 'nowrap' }}
    >
      Back To Admin
    </Button>
  );
}
