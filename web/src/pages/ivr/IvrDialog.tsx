// One campaign's IVR authentication in a dialog (the IVR Auth screens): on or off, the prompt, the
// PINs callers may key, their length and the tries allowed. Read afresh each time it opens.
import FormDialog from '../../components/FormDialog';
import { IvrFields, useIvrForm } from './IvrForm';

/** The campaign whose settings are edited. */
export interface IvrCampaign {
  campaign_id: number;
  name: string;
}

interface IvrDialogProps {
  campaign: IvrCampaign;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function IvrDialog({ campaign, onClose, onSaved }: IvrDialogProps) {
  const form = useIvrForm(campaign.campaign_id);

  const save = async () => {
    if (await form.save()) onSaved(`IVR settings of ${campaign.name} saved.`);
  };

  return (
    <FormDialog
      open
      name="ivr"
      title={`IVR authentication of ${campaign.name}`}
      message={form.message || form.loadError}
      saving={form.saving || !form.loaded}
      saveLabel="Save"
      onClose={onClose}
      onSave={save}
      maxWidth="md"
    >
      <IvrFields campaignId={campaign.campaign_id} form={form} />
    </FormDialog>
  );
}
