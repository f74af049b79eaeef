import PagePlaceholder from '../../components/PagePlaceholder';

export default function BuyerPage() {
  return <PagePlaceholder title="Buyer" description="Buyers will be managed here." />;
}
