import PagePlaceholder from '../../components/PagePlaceholder';

export default function BuyerTargetPage() {
  return <PagePlaceholder title="Buyer Target" description="Your targets will be listed here." />;
}
