import PagePlaceholder from '../../components/PagePlaceholder';

export default function ManageNumberPage() {
  return <PagePlaceholder title="Number" description="The number pool will be managed here." />;
}
