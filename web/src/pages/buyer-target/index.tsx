// The buyer's targets: where its calls ring, whether each takes calls now (paused, closed hours or
// a cap reached), this hour's, today's and this month's calls against its caps, open hours in the
// target's zone, and the payout. The customer that buys from it sets them up; the buyer pauses and
// resumes them (PATCH /target/status/{id}, its own targets only).
import { useState } from 'react';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { ApiOutlined, ReloadOutlined } from '@ant-design/icons';

import ListCard from '../../components/ListCard';
import { PageTitle } from '../../components/PagePlaceholder';
import WebhooksDialog from '../../components/WebhooksDialog';
import { call } from '../../api/client';
import { buyersDetails, buyersOwnTargets, targetsStatus, type BuyerOut, type BuyerTarget } from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import usePagedList, { type PageQuery } from '../../hooks/usePagedList';
import { formatBalance } from '../../utils/balance';
import { PERIODS, availability, capUse } from '../../utils/buyerTargets';
import { scheduleSummary } from '../../utils/targetForm';

/** The API gives the whole (short) list; the table pages it here. */
async function targetPage({ page, perpage }: PageQuery) {
  const all = (await call(buyersOwnTargets())) ?? [];
  return { data: all.slice((page - 1) * perpage, page * perpage), total: all.length };
}

function Use({
  used,
  cap,
  testId
}: {
  used: number | null | undefined;
  cap: number | null | undefined;
  testId: string;
}) {
  const { text, percent, full } = capUse(used, cap);
  return (
    <>
      <Typography variant="body2" color={full ? 'error' : undefined} data-testid={testId}>
        {text}
      </Typography>
      {percent !== null && (
        <LinearProgress variant="determinate" value={percent} color={full ? 'error' : 'primary'} sx={{ mt: 0.5 }} />
      )}
    </>
  );
}

export default function BuyerTargetPage() {
  const list = usePagedList(targetPage, { failure: 'Your targets could not be loaded.' });
  const [me, setMe] = useState<BuyerOut | null>(null); // the buyer's own record, while its webhooks are shown
  const openWebhooks = async () => {
    try {
      setMe((await call(buyersDetails({ query: { page: 1, perpage: 1, params: '' } }))).data[0] ?? null);
    } catch (err) {
      list.setError(failureMessage(err, 'Your webhooks could not be loaded.'));
    }
  };
  const [notice, setNotice] = useState('');
  const [pausing, setPausing] = useState(0); // the target whose status is being changed
  const pauseOrResume = async (t: BuyerTarget) => {
    const status = t.status === 'active' ? 'inactive' : 'active';
    setPausing(t.id);
    try {
      await call(targetsStatus({ path: { id: t.id }, body: { status } }));
      setNotice(`${t.name} is ${status === 'active' ? 'taking calls again' : 'paused'}.`);
      list.reload();
    } catch (err) {
      list.setError(failureMessage(err, `${t.name} could not be changed.`));
    } finally {
      setPausing(0);
    }
  };
  return (
    <>
      <PageTitle title="Buyer Target">
        <Button variant="outlined" startIcon={<ApiOutlined />} onClick={openWebhooks} data-testid="buyer-own-webhooks">
          Webhooks
        </Button>
      </PageTitle>
      {me && <WebhooksDialog owner={{ buyer_id: me.id }} title="Your webhooks" onClose={() => setMe(null)} />}
      <ListCard
        name="buyer-target"
        title="Your targets"
        secondary={
          <Tooltip title="Refresh the counts">
            <IconButton onClick={list.reload} aria-label="Refresh targets">
              <ReloadOutlined />
            </IconButton>
          </Tooltip>
        }
        list={list}
        notice={notice}
        setNotice={setNotice}
        columns={[
          'Target',
          'Destination',
          'Now',
          'Open hours',
          'At once',
          ...PERIODS.map(([, , label]) => label),
          ['Payout', 'right'],
          ['Action', 'right']
        ]}
        emptyText="No targets yet: the customer you buy from sets them up."
      >
        {list.rows.map((t) => {
          const now = availability(t);
          return (
            <TableRow hover key={t.id} data-testid="buyer-target-row" data-name={t.name}>
              <TableCell>{t.name}</TableCell>
              <TableCell>{t.destination}</TableCell>
              <TableCell>
                <Chip size="small" variant="light" color={now.color} label={now.label} data-testid="buyer-target-now" />
              </TableCell>
              <TableCell data-testid="buyer-target-hours">
                {scheduleSummary(t.schedule)}
                <Typography variant="caption" component="div" color="text.secondary">
                  {t.timezone}
                </Typography>
              </TableCell>
              <TableCell>{t.concurrency_cap ?? 'No cap'}</TableCell>
              {PERIODS.map(([used, cap]) => (
                <TableCell key={used} sx={{ minWidth: 110 }}>
                  <Use used={t[used]} cap={t[cap]} testId={`buyer-target-${used}`} />
                </TableCell>
              ))}
              <TableCell align="right">{formatBalance(t.payout)}</TableCell>
              <TableCell align="right">
                <Button
                  size="small"
                  variant="outlined"
                  color={t.status === 'active' ? 'warning' : 'success'}
                  disabled={pausing === t.id}
                  onClick={() => void pauseOrResume(t)}
                  data-testid="buyer-target-pause"
                >
                  {t.status === 'active' ? 'Pause' : 'Resume'}
                </Button>
              </TableCell>
            </TableRow>
          );
        })}
      </ListCard>
    </>
  );
}
