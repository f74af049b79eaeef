// The report's bulk action on ticked calls: block their callers, after a confirm step that names
// them. Only admins and customers block (the API refuses buyers); an admin's blocks are platform-wide.
import { useState } from 'react';
import Button from '@mui/material/Button';
import { StopOutlined } from '@ant-design/icons';

import { call } from '../../api/client';
import { blocksFromCalls, type CallReportRow } from '../../client';
import ConfirmDialog from '../../components/ConfirmDialog';
import { failureMessage } from '../../hooks/apiFailure';
import { blockQuestion, blockResult, callersOf } from '../../utils/blockCallers';

interface Props {
  calls: CallReportRow[];
  admin: boolean;
  onDone: (message: string) => void;
  onProblem: (message: string) => void;
}

export default function BlockCallers({ calls, admin, onDone, onProblem }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const callers = callersOf(calls);

  const block = async () => {
    setBusy(true);
    try {
      const answer = await call(blocksFromCalls({ body: { call_ids: calls.map((c) => c.id) } }));
      onDone(blockResult(answer));
    } catch (err) {
      onProblem(failureMessage(err, 'The callers could not be blocked.'));
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };

  return (
    <>
      <Button
        variant="outlined"
        color="error"
        startIcon={<StopOutlined />}
        disabled={!calls.length}
        onClick={() => setAsking(true)}
        data-testid="report-block-callers"
      >
        {calls.length ? `Block callers (${calls.length} selected)` : 'Block callers'}
      </Button>
      <ConfirmDialog
        open={asking}
        title="Block callers"
        text={blockQuestion(callers, admin)}
        confirmLabel="Block"
        busy={busy}
        onConfirm={() => void block()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
