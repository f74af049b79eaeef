// Calls and answered calls as bars, the dashboard's one chart style: over time (a bar pair per hour
// or day) or, `vertical`, one row per named thing (a region), or a message where there is nothing.
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** One bar pair: its label, its calls and the answered ones. */
export interface CallsBar {
  label: string;
  Calls: number;
  Answered: number;
}

interface CallsBarsProps {
  data: CallsBar[];
  vertical?: boolean;
  message?: string;
  messageTestId?: string;
}

/** `data`: rows of {label, Calls, Answered}; `message`, when given, shows instead of the chart. */
export default function CallsBars({ data, vertical = false, message, messageTestId }: CallsBarsProps) {
  const theme = useTheme();
  if (message) {
    return (
      <Stack sx={{ height: '100%', alignItems: 'center', justifyContent: 'center' }}>
        <Typography color="text.secondary" data-testid={messageTestId}>
          {message}
        </Typography>
      </Stack>
    );
  }
  const axis = { stroke: theme.palette.text.secondary };
  return (
    <ResponsiveContainer>
      <BarChart data={data} {...(vertical ? { layout: 'vertical' as const, margin: { left: 40 } } : {})}>
        <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
        {vertical ? <XAxis type="number" allowDecimals={false} {...axis} /> : <XAxis dataKey="label" {...axis} />}
        {vertical ? (
          <YAxis type="category" dataKey="label" width={160} {...axis} />
        ) : (
          <YAxis allowDecimals={false} {...axis} />
        )}
        <Tooltip contentStyle={{ background: theme.palette.background.paper, borderColor: theme.palette.divider }} />
        <Legend />
        <Bar dataKey="Calls" fill={theme.palette.primary.main} isAnimationActive={false} />
        <Bar dataKey="Answered" fill={theme.palette.success.main} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
