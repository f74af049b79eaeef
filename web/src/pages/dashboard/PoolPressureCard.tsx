// Website number pools under pressure (docs/attribution.md): per pool, its visitor sessions per
// number, how often a number was reused while held, and the numbers the traffic seen needs.
// Shown only to a caller with a pool that is on.
import { useEffect, useState } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';

import MainCard from '../../components/MainCard';
import { call } from '../../api/client';
import { dniPools, type PoolRow } from '../../client';
import { sessionsPerNumber } from '../../utils/websiteNumbers';

export default function PoolPressureCard() {
  const [pools, setPools] = useState<PoolRow[]>([]);

  useEffect(() => {
    call(dniPools()).then(setPools, () => setPools([]));
  }, []);

  if (pools.length === 0) return null;
  return (
    <MainCard content={false} title="Website number pools">
      <Table size="small" data-testid="dashboard-pools">
        <TableHead>
          <TableRow>
            <TableCell>Campaign</TableCell>
            <TableCell align="right">Numbers</TableCell>
            <TableCell align="right">Active visitors</TableCell>
            <TableCell align="right">Sessions per number</TableCell>
            <TableCell align="right">Reused</TableCell>
            <TableCell align="right">Numbers needed</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {pools.map((p) => (
            <TableRow key={p.campaign_id} data-testid="dashboard-pool" data-name={p.campaign}>
              <TableCell>{p.campaign}</TableCell>
              <TableCell align="right">{p.numbers}</TableCell>
              <TableCell align="right">{p.pressure.active}</TableCell>
              <TableCell align="right">{sessionsPerNumber(p.pressure, p.numbers)}</TableCell>
              <TableCell align="right">{p.pressure.reused}</TableCell>
              <TableCell align="right" sx={{ color: p.pressure.needed > p.numbers ? 'warning.main' : undefined }}>
                {p.pressure.needed}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </MainCard>
  );
}
