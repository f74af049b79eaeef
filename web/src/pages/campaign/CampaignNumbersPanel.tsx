// The campaign's tracking numbers (the campaign page's Numbers tab): the numbers whose calls it
// routes, one of its owner's other numbers assigned to it (moved from the campaign it had), or one
// released from it (the number stays its owner's, routing nowhere until assigned again).
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

import DialogMessages from '../../components/DialogMessages';
import { SelectField } from '../../components/FormDialog';
import { EmptyRow } from '../../components/ListParts';
import { call } from '../../api/client';
import { numbersDetails, numbersUpdate, type NumberRow } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { statusColor } from '../../utils/status';
import type { CampaignPanelProps } from './panels';

const MAX_ROWS = 500; // the API's largest page: more numbers than a campaign page lists at once

export default function CampaignNumbersPanel({ campaign, admin }: CampaignPanelProps) {
  const [owned, setOwned] = useState<NumberRow[]>([]); // every number of the campaign's owner
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState(0); // bumped to read the numbers again after a change
  const { id, user_id: ownerId } = campaign;

  useEffect(() => {
    let alive = true;
    const query = { page: 1, perpage: MAX_ROWS, ...(admin && { user_id: ownerId }) };
    call(numbersDetails({ query }))
      .then((page) => alive && setOwned(page.data))
      .catch((err: unknown) => alive && setError(failureMessage(err, 'The numbers could not be loaded.')));
    return () => {
      alive = false;
    };
  }, [admin, ownerId, asked]);

  const routed = owned.filter((n) => n.campaign_id === id);
  const others = owned.filter((n) => n.campaign_id !== id);

  const move = async (number: NumberRow, campaignId: number | null, text: string) => {
    setError('');
    setNotice('');
    setBusy(true);
    try {
      await call(numbersUpdate({ path: { id: number.id }, body: { campaign_id: campaignId } }));
      setNotice(text);
      setChosen('');
      setAsked((n) => n + 1);
    } catch (err) {
      setError(failureMessage(err, 'The number could not be changed.'));
    } finally {
      setBusy(false);
    }
  };

  const assign = () => {
    const number = others.find((n) => String(n.id) === chosen);
    if (!number) setError('Choose a number to assign.');
    else void move(number, id, `${number.number} now routes to ${campaign.name}.`);
  };

  return (
    <>
      <DialogMessages error={error} notice={notice} testid="campaign-numbers" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Calls to these numbers follow this campaign&apos;s settings.
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="campaign-numbers-table">
          <TableHead>
            <TableRow>
              <TableCell>Number</TableCell>
              <TableCell>Status</TableCell>
              <TableCell align="right">Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {routed.map((number) => (
              <TableRow key={number.id} data-testid="campaign-number-row" data-number={number.number}>
                <TableCell>{number.number}</TableCell>
                <TableCell>
                  <Chip size="small" variant="light" color={statusColor(number.status)} label={number.status} />
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    color="error"
                    disabled={busy}
                    onClick={() => move(number, null, `${number.number} released: it routes nowhere until assigned.`)}
                    data-testid="campaign-number-release"
                  >
                    Release
                  </Button>
                </TableCell>
              </TableRow>
            ))}
            {routed.length === 0 && <EmptyRow colSpan={3} text="No numbers yet: no call reaches this campaign." />}
          </TableBody>
        </Table>
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mt: 3, alignItems: { sm: 'flex-start' } }}>
        <SelectField
          label="Assign a number"
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          options={others.map(
            (n) => [String(n.id), n.campaign_name ? `${n.number} (now ${n.campaign_name})` : n.number] as const
          )}
          size="small"
          sx={{ minWidth: 280 }}
          helperText={others.length ? ' ' : 'No other number of this customer'}
          disabled={others.length === 0}
          slotProps={{ htmlInput: { 'data-testid': 'campaign-number-choice' } }}
        />
        <Button
          variant="contained"
          onClick={assign}
          disabled={busy || others.length === 0}
          data-testid="campaign-number-assign"
        >
          Assign
        </Button>
      </Stack>
    </>
  );
}
