import PagePlaceholder from '../../components/PagePlaceholder';

export default function UploadNumberPage() {
  return <PagePlaceholder title="Upload Number" description="Numbers will be uploaded from a CSV file here." />;
}
