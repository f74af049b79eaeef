import PagePlaceholder from '../../components/PagePlaceholder';

export default function TopupPage() {
  return <PagePlaceholder title="Topup" description="Wallet top-ups will be made here." />;
}
