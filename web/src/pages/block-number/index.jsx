import PagePlaceholder from '../../components/PagePlaceholder';

export default function BlockNumberPage() {
  return <PagePlaceholder title="Block Number" description="Blocked caller numbers will be managed here." />;
}
