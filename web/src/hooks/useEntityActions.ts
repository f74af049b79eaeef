import { useState } from 'react';
import type { Status } from '../client';
import { failureMessage } from './apiFailure';

/** A list row the actions work on: its id, and its status for the active switch. */
export interface EntityRow {
  id: number;
  status?: string;
  name?: string;
}

/** The calls behind a row's switch and delete button (the entity's generated calls). */
export interface EntityCalls {
  setStatus: (id: number, status: Status) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
}

interface Options<Row> {
  reload: () => unknown;
  setError: (message: string) => void;
  labelOf?: (row: Row) => string;
}

/** `editing` while the dialog adds a new row. */
export type NewRow = { id?: undefined };

const nameOf = (row: EntityRow): string => row.name ?? '';

/**
 * What a list screen does to its rows: the add/edit dialog (`editing`: null closed, {} add, a row
 * edit), switching a row active or inactive, deleting one once confirmed (`deleting`). Each
 * outcome shows as a notice or an error, then the list is fetched again. `entity` holds the
 * entity's status and delete calls; `noun` ('Trunk') and `labelOf(row)` (its name) name rows in
 * the notices.
 */
export default function useEntityActions<Row extends EntityRow>(
  entity: EntityCalls,
  noun: string,
  { reload, setError, labelOf = nameOf }: Options<Row>
) {
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState<Row | NewRow | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [busy, setBusy] = useState(false);

  const done = (text: string) => {
    setError('');
    setNotice(text);
    reload();
  };

  /** Run `action`; its result is the notice, its failure the error. */
  const act = async (action: () => Promise<string>, failure: string) => {
    setBusy(true);
    try {
      done(await action());
    } catch (err) {
      setNotice('');
      setError(failureMessage(err, failure));
    } finally {
      setBusy(false);
    }
  };

  const toggle = (row: Row) => {
    const next: Status = row.status === 'active' ? 'inactive' : 'active';
    void act(async () => {
      await entity.setStatus(row.id, next);
      return `${noun} ${labelOf(row)} is now ${next}.`;
    }, 'The status could not be changed.');
  };

  const remove = () => {
    const row = deleting;
    if (!row) return;
    setDeleting(null);
    void act(async () => {
      await entity.remove(row.id);
      return `${noun} ${labelOf(row)} deleted.`;
    }, `The ${noun.toLowerCase()} could not be deleted.`);
  };

  /** The dialog saved: close it and say so. */
  const saved = (text: string) => {
    setEditing(null);
    done(text);
  };

  return { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, act, toggle, remove, saved };
}

/** What useEntityActions gives a list screen (components/EntityRowParts take it whole). */
export type EntityActions<Row extends EntityRow> = ReturnType<typeof useEntityActions<Row>>;
