// The vendor a number or a trunk comes from, picked by name among the active vendors (and the
// current one, even when inactive now); empty for none. The Vendor screen has no menu entry (the
// spec's admin menu), so it is linked from here, where vendors are picked.
import { useEffect, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Link from '@mui/material/Link';

import NamePicker, { type PickedId } from './NamePicker';
import { call } from '../api/client';
import { vendorsDetails, type VendorOut } from '../client';
import { failureMessage } from '../hooks/apiFailure';

interface VendorPickerProps {
  value: PickedId;
  onChange: (id: number | null) => void;
  testId: string;
  error?: string | undefined;
}

export default function VendorPicker({ value, onChange, testId, error }: VendorPickerProps) {
  const [vendors, setVendors] = useState<VendorOut[]>([]);
  const [failed, setFailed] = useState('');

  useEffect(() => {
    // Every vendor (up to the API's page size): the inactive current one shows by name too.
    call(vendorsDetails({ query: { page: 1, perpage: 500 } }))
      .then((page) => setVendors(page?.data ?? []))
      .catch((err: unknown) => setFailed(failureMessage(err, 'Vendors could not be loaded.')));
  }, []);

  const options = vendors.filter((v) => v.status === 'active' || v.id === value);
  return (
    <>
      <NamePicker
        label="Vendor"
        options={options}
        value={value}
        onChange={onChange}
        testId={testId}
        error={error || failed}
        helperText="The carrier it comes from; empty for none"
      />
      <Link component={RouterLink} to="/vendor" variant="caption" data-testid={`${testId}-manage`}>
        Manage vendors
      </Link>
    </>
  );
}
