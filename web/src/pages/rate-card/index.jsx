import PagePlaceholder from '../../components/PagePlaceholder';

export default function RateCardPage() {
  return <PagePlaceholder title="Rate Card" description="Rate cards will be managed here." />;
}
