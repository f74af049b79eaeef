import PagePlaceholder from '../../components/PagePlaceholder';

export default function DashboardPage() {
  return <PagePlaceholder title="Dashboard" description="Call volumes, spend and live activity will show here." />;
}
