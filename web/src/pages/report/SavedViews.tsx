// Saved views of the report (kept on the server, the person's own): open one, save the current
// view under a name, delete the one open.
import { useCallback, useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { DeleteOutlined, SaveOutlined } from '@ant-design/icons';

import { call } from '../../api/client';
import { reportViewsAdd, reportViewsMine, reportViewsRemove, type ReportViewOut } from '../../client';
import { testId } from '../../components/testId';
import { failureMessage } from '../../hooks/apiFailure';
import { fromSaved, toSaved, type ReportView } from '../../utils/reportView';

interface Props {
  view: ReportView;
  onOpen: (view: ReportView) => void;
  onProblem: (problem: string) => void;
}

export default function SavedViews({ view, onOpen, onProblem }: Props) {
  const [views, setViews] = useState<ReportViewOut[]>([]);
  const [chosen, setChosen] = useState<number | ''>('');
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState('');

  const refresh = useCallback(
    () =>
      call(reportViewsMine())
        .then(setViews)
        .catch((err: unknown) => onProblem(failureMessage(err, 'The saved views could not be loaded.'))),
    [onProblem]
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const open = (id: number | '') => {
    setChosen(id);
    const saved = views.find((v) => v.id === id);
    if (saved) onOpen(fromSaved(saved));
  };
  const save = async () => {
    try {
      const saved = await call(reportViewsAdd({ body: toSaved(name.trim(), view) }));
      await refresh();
      setChosen(saved.id);
      setNaming(false);
      setName('');
    } catch (err) {
      setProblem(failureMessage(err, 'The view could not be saved.'));
    }
  };
  const remove = async () => {
    if (chosen === '') return;
    try {
      await call(reportViewsRemove({ path: { id: chosen } }));
      setChosen('');
      await refresh();
    } catch (err) {
      onProblem(failureMessage(err, 'The view could not be deleted.'));
    }
  };

  return (
    <>
      <TextField
        select
        size="small"
        label="Saved views"
        value={chosen}
        onChange={(e) => open(e.target.value === '' ? '' : Number(e.target.value))}
        sx={{ minWidth: 180 }}
        slotProps={{ htmlInput: testId('report-views'), select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value="">{views.length ? 'Choose a view' : 'None saved yet'}</MenuItem>
        {views.map((v) => (
          <MenuItem key={v.id} value={v.id} data-testid="report-view-option">
            {v.name}
          </MenuItem>
        ))}
      </TextField>
      {chosen !== '' && (
        <Tooltip title="Delete this saved view">
          <IconButton
            onClick={() => void remove()}
            aria-label="Delete this saved view"
            data-testid="report-view-delete"
          >
            <DeleteOutlined />
          </IconButton>
        </Tooltip>
      )}
      <Button
        variant="outlined"
        startIcon={<SaveOutlined />}
        onClick={() => setNaming(true)}
        data-testid="report-view-save"
      >
        Save view
      </Button>
      <Dialog open={naming} onClose={() => setNaming(false)}>
        <DialogTitle>Save this view</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label="Name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setProblem('');
            }}
            error={Boolean(problem)}
            helperText={problem || 'Its filters, period, columns, sort and grouping, under this name.'}
            slotProps={{ htmlInput: { ...testId('report-view-name'), maxLength: 80 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setNaming(false)}>Cancel</Button>
          <Button
            variant="contained"
            onClick={() => void save()}
            disabled={!name.trim()}
            data-testid="report-view-confirm"
          >
            Save
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
