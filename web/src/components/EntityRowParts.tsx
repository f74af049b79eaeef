// The end of a list row and the delete question, the same on every screen whose rows are switched
// on and off, edited and deleted through useEntityActions (sources, targets, campaigns, buyers).
import type { ReactNode } from 'react';
import TableCell from '@mui/material/TableCell';

import ConfirmDialog from './ConfirmDialog';
import { RowActions, StatusSwitch } from './ListParts';
import type { EntityActions, EntityRow } from '../hooks/useEntityActions';

type Named = EntityRow & { name: string };

interface CellsProps<Row extends Named> {
  /** The test ids' prefix (`{name}-status`, `{name}-edit`, `{name}-delete`). */
  name: string;
  row: Row;
  actions: Pick<EntityActions<Row>, 'busy' | 'toggle' | 'setEditing' | 'setDeleting'>;
  /** The screen's own row buttons, before edit and delete. */
  children?: ReactNode;
}

/** The row's "Active" switch cell and its "Action" cell (edit, delete). */
export function StatusAndActionCells<Row extends Named>({ name, row, actions, children }: CellsProps<Row>) {
  return (
    <>
      <TableCell>
        <StatusSwitch name={name} row={row} busy={actions.busy} onToggle={actions.toggle} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {children}
        <RowActions
          name={name}
          label={row.name}
          onEdit={() => actions.setEditing(row)}
          onDelete={() => actions.setDeleting(row)}
        />
      </TableCell>
    </>
  );
}

interface DeleteProps<Row extends Named> {
  /** What a row is, for the title ("Delete source"). */
  noun: string;
  actions: Pick<EntityActions<Row>, 'busy' | 'deleting' | 'setDeleting' | 'remove'>;
  /** The question for the row about to be deleted: what goes with it, what is refused. */
  question: (row: Row) => string;
}

/** The confirm step before a row is deleted. */
export function DeleteConfirm<Row extends Named>({ noun, actions, question }: DeleteProps<Row>) {
  const { deleting, busy, remove, setDeleting } = actions;
  return (
    <ConfirmDialog
      open={deleting !== null}
      title={`Delete ${noun}`}
      text={deleting ? question(deleting) : ''}
      confirmLabel="Delete"
      busy={busy}
      onConfirm={remove}
      onClose={() => setDeleting(null)}
    />
  );
}
