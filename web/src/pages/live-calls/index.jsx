import PagePlaceholder from '../../components/PagePlaceholder';

export default function LiveCallsPage() {
  return <PagePlaceholder title="Live Calls" description="Calls in progress will show here." />;
}
