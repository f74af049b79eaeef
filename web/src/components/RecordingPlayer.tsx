// A recorded call's audio: fetched with the token when asked for, then played in the page; `seek`
// (a moment in seconds, from a transcript line) loads it if need be and plays from there.
import { useEffect, useRef, useState } from 'react';
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

/** Where to play from: a new object each click, so the same line clicked twice seeks again. */
export interface Seek {
  at: number;
}

export default function RecordingPlayer({ callId, seek }: { callId: number; seek?: Seek | null }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(false);
  const audio = useRef<HTMLAudioElement>(null);
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
  useEffect(() => {
    if (!seek) return;
    if (!url) {
      if (!loading) queueMicrotask(() => void load()); // after this render, as a click would
      return;
    }
    const player = audio.current;
    if (!player) return;
    const play = () => {
      player.currentTime = seek.at;
      void player.play().catch(() => undefined); // a browser may refuse to play unasked: the position holds
    };
    if (player.readyState >= 1) play();
    else player.addEventListener('loadedmetadata', play, { once: true });
    // `load` and `loading` change with every render; the seek and the loaded audio are what matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seek, url]);
  if (url)
    return <audio ref={audio} controls autoPlay src={url} style={{ width: '100%' }} data-testid="call-recording" />;
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
