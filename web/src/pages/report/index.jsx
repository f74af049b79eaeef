import PagePlaceholder from '../../components/PagePlaceholder';

export default function ReportPage() {
  return <PagePlaceholder title="Report" description="Call detail records with filters will be listed here." />;
}
