// Block a caller's number or a range of numbers, or change a block.
import { useEffect } from 'react';
import Grid from '@mui/material/Grid';
import TextField from '@mui/material/TextField';

import FormDialog, { SelectField } from '../../components/FormDialog';
import { call } from '../../api/client';
import { blocksAdd, blocksUpdate, type BlockOut } from '../../client';
import useFormDialog from '../../hooks/useFormDialog';
import { MATCH_TYPES, blockBody, blockToForm, emptyBlock, validateBlock } from '../../utils/blockForm';

interface BlockDialogProps {
  open: boolean;
  block: BlockOut | null;
  admin: boolean;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function BlockDialog({ open, block, admin, onClose, onSaved }: BlockDialogProps) {
  const editing = block !== null;
  const { values, message, saving, field, reset, submit } = useFormDialog('block', emptyBlock());

  useEffect(() => {
    if (open) reset(block ? blockToForm(block) : emptyBlock());
  }, [open, block, reset]);

  const save = async () => {
    const saved = await submit(
      validateBlock,
      () =>
        editing
          ? call(blocksUpdate({ path: { id: block.id }, body: blockBody(values, { editing }) }))
          : call(blocksAdd({ body: blockBody(values, { admin }) })),
      'The block could not be saved.'
    );
    if (saved) onSaved(`${saved.pattern} ${editing ? 'saved' : 'blocked'}.`);
  };

  return (
    <FormDialog
      open={open}
      name="block"
      title={editing ? `Edit block ${block.pattern}` : 'Block a caller'}
      message={message}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Block'}
      onClose={onClose}
      onSave={save}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 5 }}>
          <SelectField {...field('match_type', 'Block')} options={MATCH_TYPES} />
        </Grid>
        <Grid size={{ xs: 12, sm: 7 }}>
          <TextField
            {...field('pattern', 'Caller number', {
              helperText: values.match_type === 'prefix' ? 'Leading digits, e.g. 1415555' : 'E.164, e.g. +14155550100'
            })}
            autoFocus
          />
        </Grid>
        <Grid size={{ xs: 12, sm: admin && !editing ? 8 : 12 }}>
          <TextField {...field('reason', 'Reason')} />
        </Grid>
        {admin && !editing && (
          <Grid size={{ xs: 12, sm: 4 }}>
            <TextField {...field('user_id', 'Customer ID', { helperText: 'Empty: every customer' })} />
          </Grid>
        )}
      </Grid>
    </FormDialog>
  );
}
