import PagePlaceholder from '../../components/PagePlaceholder';

export default function NumberPage() {
  return <PagePlaceholder title="Number" description="Your tracking numbers will be listed here." />;
}
