// A recorded call's audio: fetched with the token when asked for, then played in the page.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { SoundOutlined } from '@ant-design/icons';

import { reportsRecording } from '../client';
import { failureOf } from '../hooks/apiFailure';

// The body of a failed blob request is not read, so say what its status means.
const BY_STATUS: Record<number, string> = {
  404: 'This recording is no longer stored.',
  503: "The PBX can't be reached now; try again shortly."
};

export default function RecordingPlayer({ callId }: { callId: number }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  const load = async () => {
    setLoading(true);
    setError('');
    try {
      const { data } = await reportsRecording({
        path: { id: callId },
        responseType: 'blob',
        headers: { Accept: 'audio/wav' }
      });
      setUrl(URL.createObjectURL(data));
    } catch (err) {
      const failure = failureOf(err);
      setError(
        (failure.code !== undefined && BY_STATUS[failure.code]) ||
          failure.message ||
          'The recording could not be loaded.'
      );
    } finally {
      setLoading(false);
    }
  };
  if (url) return <audio controls autoPlay src={url} style={{ width: '100%' }} data-testid="call-recording" />;
  return (
    <>
      <Button
        variant="outlined"
        size="small"
        startIcon={<SoundOutlined />}
        onClick={load}
        disabled={loading}
        data-testid="call-recording-play"
      >
        Play recording
      </Button>
      {error && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
    </>
  );
}
