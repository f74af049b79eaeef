// IVR Auth for the admin: every customer's campaigns.
import IvrPage from './IvrPage';

export default function AdminIvrPage() {
  return <IvrPage admin />;
}
