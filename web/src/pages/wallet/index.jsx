import PagePlaceholder from '../../components/PagePlaceholder';

export default function WalletPage() {
  return <PagePlaceholder title="Payment History" description="Wallet transactions will be listed here." />;
}
