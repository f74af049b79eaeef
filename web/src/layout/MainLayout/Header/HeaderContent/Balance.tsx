// Wallet balance with a refresh icon (customers only). Red, bold and blinking below 50.
import type { ReactElement } from 'react';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import { ReloadOutlined, WalletOutlined } from '@ant-design/icons';
import { type Amount, formatBalance, isLowBalance, moneyPlaces } from '../../../../utils/balance';

const blink = keyframes`0%, 100% { opacity: 1; } 50% { opacity: 0.2; }`;

export interface BalanceProps {
  balance: Amount;
  loading: boolean;
  refresh: () => void;
}

export default function Balance({ balance, loading, refresh }: BalanceProps): ReactElement {
  const low = isLowBalance(balance);
  return (
    <Box
      data-testid="header-balance"
      data-low={String(low)}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.75,
        px: 1.25,
        py: 0.5,
        border: '1px solid',
        borderColor: low ? 'error.main' : 'divider',
        borderRadius: 1
      }}
    >
      <WalletOutlined style={{ fontSize: '1rem' }} />
      <Typography
        variant="body1"
        component="span"
        data-testid="balance-amount"
        sx={{
          whiteSpace: 'nowrap',
          fontWeight: low ? 700 : 500,
          color: low ? 'error.main' : 'text.primary',
          ...(low && { animation: `${blink} 1s step-start infinite` })
        }}
      >
        {/* Exact: a balance with a fraction of a cent says it, as the wallet's lines do. */}
        {formatBalance(balance, undefined, moneyPlaces([balance]))}
      </Typography>
      <Tooltip title="Refresh balance">
        <IconButton
          size="small"
          aria-label="Refresh balance"
          onClick={refresh}
          disabled={loading}
          data-testid="balance-refresh"
          sx={{ width: 24, height: 24 }}
        >
          <ReloadOutlined spin={loading} data-loading={String(loading)} style={{ fontSize: '0.8rem' }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
