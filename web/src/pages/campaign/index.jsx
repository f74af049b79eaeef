import PagePlaceholder from '../../components/PagePlaceholder';

export default function CampaignPage() {
  return <PagePlaceholder title="Campaign" description="Campaigns will be managed here." />;
}
