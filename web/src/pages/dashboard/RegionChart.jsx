// The dashboard's calls by caller region (docs/regions.md): the ten busiest regions, and the line types.
import { useEffect, useState } from 'react';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import MainCard from '../../components/MainCard';
import { fetchCallRegions } from '../../api/dashboard';
import { lineTypeSummary, regionBars } from '../../utils/origin';

export default function RegionChart({ period }) {
  const theme = useTheme();
  const [regions, setRegions] = useState(null);
  const [error, setError] = useState('');

  useEffect(() => {
    let cancelled = false;
    setError('');
    fetchCallRegions(period)
      .then((r) => !cancelled && setRegions(r))
      .catch((err) => !cancelled && setError(err?.message || 'Calls by region could not be loaded.'));
    return () => {
      cancelled = true;
    };
  }, [period]);

  const bars = regionBars(regions?.by_region);
  return (
    <MainCard title="Calls by caller region" secondary={<Typography variant="caption" data-testid="dashboard-line-types">{lineTypeSummary(regions?.by_line_type)}</Typography>}>
      <div style={{ width: '100%', height: 40 + 32 * Math.max(bars.length, 1) }} data-testid="dashboard-regions" data-regions={bars.map((b) => `${b.label}=${b.Calls}`).join('|')}>
        {error || bars.length === 0 ? (
          <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
            <Typography color="text.secondary">{error || 'No calls in this period.'}</Typography>
          </Stack>
        ) : (
          <ResponsiveContainer>
            <BarChart data={bars} layout="vertical" margin={{ left: 40 }}>
              <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
              <XAxis type="number" allowDecimals={false} stroke={theme.palette.text.secondary} />
              <YAxis type="category" dataKey="label" width={160} stroke={theme.palette.text.secondary} />
              <Tooltip contentStyle={{ background: theme.palette.background.paper, borderColor: theme.palette.divider }} />
              <Legend />
              <Bar dataKey="Calls" fill={theme.palette.primary.main} isAnimationActive={false} />
              <Bar dataKey="Answered" fill={theme.palette.success.main} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </div>
    </MainCard>
  );
}
