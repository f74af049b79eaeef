import PagePlaceholder from '../../components/PagePlaceholder';

export default function VendorPage() {
  return <PagePlaceholder title="Vendor" description="Number vendors will be managed here." />;
}
