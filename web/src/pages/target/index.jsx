import PagePlaceholder from '../../components/PagePlaceholder';

export default function TargetPage() {
  return <PagePlaceholder title="Target" description="Call targets will be managed here." />;
}
