// Where a call's caller came from (docs/attribution.md): the website visit that held the number it
// dialled, the visitor's pages, and, when the number was shared, every candidate visit. Nothing for
// a call without one, nor for a buyer (attribution is the customer's).
import { useEffect, useState } from 'react';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';

import { call } from '../../api/client';
import { dniAttribution, type AttributionOut } from '../../client';
import { formatDateTime } from '../../utils/time';
import { isBuyer } from '../../utils/roles';
import { getStoredUser } from '../../utils/storage';

export default function CallAttribution({ callId, timeZone }: { callId: number; timeZone: string }) {
  const [found, setFound] = useState<AttributionOut | null>(null);
  const buyer = isBuyer(getStoredUser());

  useEffect(() => {
    if (buyer) return;
    let alive = true;
    call(dniAttribution({ path: { id: callId } })).then(
      (a) => alive && setFound(a ?? null),
      () => alive && setFound(null)
    );
    return () => {
      alive = false;
    };
  }, [callId, buyer]);

  if (!found) return null;
  const facts: [string, string | null][] = [
    ['Source', found.source],
    ['Medium', found.medium],
    ['Campaign (UTM)', found.campaign],
    ['Keyword', found.keyword],
    ['Content', found.content],
    ['Click id', found.click_id ? `${found.click_id} (${found.click_id_kind ?? '?'})` : null],
    ['Landing page', found.landing_page],
    ['Referrer', found.referrer]
  ];
  return (
    <>
      <Divider sx={{ my: 2 }} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6">Website visit</Typography>
        <Chip
          size="small"
          variant="light"
          color={found.status === 'ambiguous' ? 'warning' : 'success'}
          label={found.status}
          data-testid="call-attribution-status"
        />
      </Stack>
      <Table size="small" data-testid="call-attribution">
        <TableBody>
          {facts
            .filter(([, value]) => value)
            .map(([label, value]) => (
              <TableRow key={label}>
                <TableCell sx={{ color: 'text.secondary', width: 170 }}>{label}</TableCell>
                <TableCell sx={{ wordBreak: 'break-all' }}>{value}</TableCell>
              </TableRow>
            ))}
        </TableBody>
      </Table>
      <Typography variant="subtitle2" sx={{ mt: 1.5 }}>
        Pages visited
      </Typography>
      <List dense data-testid="call-attribution-pages">
        {found.pages.map((p) => (
          <ListItem key={`${p.at}-${p.url}`} disableGutters>
            <ListItemText
              primary={p.url}
              secondary={formatDateTime(new Date(p.at).toISOString(), timeZone)}
              sx={{ wordBreak: 'break-all' }}
            />
          </ListItem>
        ))}
      </List>
      {found.candidates.length > 0 && (
        <>
          <Typography variant="subtitle2" sx={{ mt: 1.5 }}>
            The number was shared: candidate visits
          </Typography>
          <List dense data-testid="call-attribution-candidates">
            {found.candidates.map((c) => (
              <ListItem key={c.session_id} disableGutters>
                <ListItemText
                  primary={`${c.source}: ${c.landing_page}`}
                  secondary={`last active ${formatDateTime(c.last_seen, timeZone)}`}
                  sx={{ wordBreak: 'break-all' }}
                />
              </ListItem>
            ))}
          </List>
        </>
      )}
    </>
  );
}
