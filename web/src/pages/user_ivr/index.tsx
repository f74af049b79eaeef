// IVR Auth for a customer: its own campaigns.
import IvrPage from '../ivr/IvrPage';

export default function UserIvrPage() {
  return <IvrPage admin={false} />;
}
