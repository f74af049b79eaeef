// The traffic source a number's calls are attributed to (issue 33): one of the number owner's
// sources, or none; a "Sources" link beside it opens the screen where sources are kept.
import { useCallback } from 'react';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { Link as RouterLink } from 'react-router-dom';

import { call } from '../api/client';
import { sourcesDetails, type SourceRow } from '../client';
import { payoutText } from '../utils/sourceForm';
import { LoadedNamePicker, type PickedId } from './NamePicker';

// A customer's sources fit in one of the API's pages.
const SOURCE_PAGE = 500;

interface SourcePickerProps {
  /** The number's owner (an admin's filter; a customer's own are all it sees). */
  userId?: number | null;
  value: PickedId;
  onChange: (id: number | null) => void;
  testid: string;
  error?: string | undefined;
}

export default function SourcePicker({ userId, value, onChange, testid, error }: SourcePickerProps) {
  const load = useCallback(
    async (): Promise<SourceRow[]> =>
      (await call(sourcesDetails({ query: { page: 1, perpage: SOURCE_PAGE, user_id: userId ?? undefined } })))?.data ??
      [],
    [userId]
  );
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <LoadedNamePicker
        load={load}
        label="Source"
        value={value ?? ''}
        onChange={(id) => onChange(id === '' ? null : id)}
        testid={testid}
        error={error}
        helperText="Its calls are this source's (none: by the visit, if any)"
        describe={(s) => payoutText(s)}
        sx={{ flex: 1, minWidth: 180 }}
      />
      <Link component={RouterLink} to="/source" variant="body2" sx={{ pt: 1 }} data-testid={`${testid}-link`}>
        Sources
      </Link>
    </Stack>
  );
}
