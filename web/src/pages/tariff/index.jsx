import PagePlaceholder from '../../components/PagePlaceholder';

export default function TariffPage() {
  return <PagePlaceholder title="Tariff" description="Tariffs will be managed here." />;
}
