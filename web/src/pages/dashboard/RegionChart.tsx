// The dashboard's calls by caller region (docs/regions.md): the ten busiest regions, and the line types.
import { useEffect, useState } from 'react';
import Typography from '@mui/material/Typography';

import MainCard from '../../components/MainCard';
import CallsBars from './CallsBars';
import { call } from '../../api/client';
import { dashboardCallRegions, type CallRegions, type Period } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import { lineTypeSummary, regionBars } from '../../utils/origin';

export default function RegionChart({ period }: { period: Period }) {
  const [regions, setRegions] = useState<CallRegions | null>(null);
  // A failure is the period's it was for: another period shows none while it loads.
  const [failure, setFailure] = useState<{ period: Period; text: string } | null>(null);
  const error = failure?.period === period ? failure.text : '';

  useEffect(() => {
    let cancelled = false;
    call(dashboardCallRegions({ query: { type: period } }))
      .then((r) => !cancelled && setRegions(r))
      .catch(
        (err: unknown) =>
          !cancelled && setFailure({ period, text: failureMessage(err, 'Calls by region could not be loaded.') })
      );
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
