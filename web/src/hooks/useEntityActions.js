import { useState } from 'react';

/**
 * What a list screen does to its rows: the add/edit dialog (`editing`: null closed, {} add, a row
 * edit), switching a row active or inactive, deleting one once confirmed (`deleting`). Each
 * outcome shows as a notice or an error, then the list is fetched again. `entity` is an
 * api/entity.js object; `noun` ('Trunk') and `labelOf(row)` (its name) name rows in the notices.
 */
export default function useEntityActions(entity, noun, { reload, setError, labelOf = (row) => row.name }) {
  const [notice, setNotice] = useState('');
  const [editing, setEditing] = useState(null);
  const [deleting, setDeleting] = useState(null);
  const [busy, setBusy] = useState(false);

  const done = (text) => {
    setError('');
    setNotice(text);
    reload();
  };

  /** Run `action`; its result is the notice, its failure the error. */
  const act = async (action, failure) => {
    setBusy(true);
    try {
      done(await action());
    } catch (err) {
      setNotice('');
      setError(err?.message || failure);
    } finally {
      setBusy(false);
    }
  };

  const toggle = (row) => {
    const next = row.status === 'active' ? 'inactive' : 'active';
    act(async () => {
      await entity.setStatus(row.id, next);
      return `${noun} ${labelOf(row)} is now ${next}.`;
    }, 'The status could not be changed.');
  };

  const remove = () => {
    const row = deleting;
    setDeleting(null);
    act(async () => {
      await entity.remove(row.id);
      return `${noun} ${labelOf(row)} deleted.`;
    }, `The ${noun.toLowerCase()} could not be deleted.`);
  };

  /** The dialog saved: close it and say so. */
  const saved = (text) => {
    setEditing(null);
    done(text);
  };

  return { notice, setNotice, busy, editing, setEditing, deleting, setDeleting, act, toggle, remove, saved };
}
