import PagePlaceholder from '../../components/PagePlaceholder';

export default function UserIvrPage() {
  return <PagePlaceholder title="IVR Auth" description="Your IVR authentication settings will be managed here." />;
}
