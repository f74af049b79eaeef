// The vendor a number or a trunk comes from, picked by name among the active vendors (and the
// current one, even when inactive now); empty for none.
import { useEffect, useState } from 'react';

import NamePicker from './NamePicker';
import { fetchVendorNames } from '../api/pickers';

export default function VendorPicker({ value, onChange, testId, error }) {
  const [vendors, setVendors] = useState([]);
  const [failed, setFailed] = useState('');

  useEffect(() => {
    fetchVendorNames()
      .then(setVendors)
      .catch((err) => setFailed(err?.message || 'Vendors could not be loaded.'));
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
