import PagePlaceholder from '../../components/PagePlaceholder';

export default function IvrPage() {
  return <PagePlaceholder title="IVR Auth" description="IVR authentication will be managed here." />;
}
