import PagePlaceholder from '../../components/PagePlaceholder';

export default function InvoicePage() {
  return <PagePlaceholder title="Invoice History" description="Invoices will be listed here." />;
}
