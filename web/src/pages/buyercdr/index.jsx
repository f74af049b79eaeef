import PagePlaceholder from '../../components/PagePlaceholder';

export default function BuyerCdrPage() {
  return <PagePlaceholder title="Buyer Report" description="Calls delivered to your targets will be listed here." />;
}
