import PagePlaceholder from '../../components/PagePlaceholder';

export default function ManageTrunkPage() {
  return <PagePlaceholder title="Trunk" description="SIP trunks will be managed here." />;
}
