// The dashboard's calls by caller region (docs/regions.md): the ten busiest regions, and the line types.
import { useEffect, useState } from 'react';
import Typography from '@mui/material/Typography';

import MainCard from '../../components/MainCard';
import CallsBars from './CallsBars';
import { fetchCallRegions } from '../../api/dashboard';
import { lineTypeSummary, regionBars } from '../../utils/origin';

export default function RegionChart({ period }) {
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
    <MainCard
      title="Calls by caller region"
      secondary={
        <Typography variant="caption" data-testid="dashboard-line-types">
          {lineTypeSummary(regions?.by_line_type)}
        </Typography>
      }
    >
      <div
        style={{ width: '100%', height: 40 + 32 * Math.max(bars.length, 1) }}
        data-testid="dashboard-regions"
        data-regions={bars.map((b) => `${b.label}=${b.Calls}`).join('|')}
      >
        <CallsBars data={bars} vertical message={error || (bars.length === 0 ? 'No calls in this period.' : '')} />
      </div>
    </MainCard>
  );
}
