// The vendor a number or a trunk comes from, picked by name among the active vendors (and the
// current one, even when inactive now); empty for none.
import { useEffect, useState } from 'react';

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
    <NamePicker
      label="Vendor"
      options={options}
      value={value}
      onChange={onChange}
      testId={testId}
      error={error || failed}
      helperText="The carrier it comes from (Vendor screen); empty for none"
    />
  );
}
