// The customers a tariff prices: mounted while shown, so each opening reads them afresh.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';

import { call } from '../../api/client';
import { usersDetails, type TariffOut, type UserOut } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { formatBalance } from '../../utils/balance';

/** Every customer on tariff `tariffId` (admin), read through the user list. */
async function customersOfTariff(tariffId: number): Promise<UserOut[]> {
  const found: UserOut[] = [];
  for (let page = 1; ; page += 1) {
    const data = await call(usersDetails({ query: { page, perpage: 500, role: 2 } }));
    const rows = Array.isArray(data?.data) ? data.data : [];
    found.push(...rows.filter((u) => u.tariff_id === tariffId));
    if (rows.length < 500) return found;
  }
}

interface TariffCustomersDialogProps {
  tariff: Pick<TariffOut, 'id' | 'name' | 'currency'>;
  onClose: () => void;
}

export default function TariffCustomersDialog({ tariff, onClose }: TariffCustomersDialogProps) {
  const [customers, setCustomers] = useState<UserOut[] | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    customersOfTariff(tariff.id)
      .then(setCustomers)
      .catch((err: unknown) => setError(failureMessage(err, 'The customers could not be loaded.')));
  }, [tariff.id]);

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth data-testid="tariff-customers">
      <DialogTitle>Customers on {tariff.name}</DialogTitle>
      <DialogContent dividers>
        {customers === null && !error && <LinearProgress />}
        {error && <Alert severity="error">{error}</Alert>}
        {customers?.length === 0 && <Typography color="text.secondary">No customer uses this tariff.</Typography>}
        <List dense>
          {customers?.map((c) => (
            <ListItem key={c.id} data-testid="tariff-customer">
              <ListItemText
                primary={c.name}
                secondary={`${c.email} · ${c.status} · ${formatBalance(c.balance, tariff.currency)}`}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
