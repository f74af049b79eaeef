// What was said on a call, per side, line by line with its time; a click on a line plays the
// recording from there. Tags and the keyword rules the call matched (the why of a conversion) on top.
import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

import { call } from '../api/client';
import { conversationTranscript, type CallTranscriptOut } from '../client';
import { failureOf } from '../hooks/apiFailure';
import { transcriptLines } from '../utils/transcript';

interface CallTranscriptProps {
  callId: number;
  onSeek: (at: number) => void;
}

export default function CallTranscript({ callId, onSeek }: CallTranscriptProps) {
  const [said, setSaid] = useState<CallTranscriptOut | null>(null);
  const [note, setNote] = useState('');
  useEffect(() => {
    let live = true;
    call(conversationTranscript({ path: { id: callId } }))
      .then((data) => live && setSaid(data))
      .catch((err: unknown) => live && setNote(failureOf(err).message || 'The transcript could not be loaded.'));
    return () => {
      live = false;
    };
  }, [callId]);
  if (note) return <Alert severity="info">{note}</Alert>;
  if (!said) return null;
  return (
    <Stack spacing={1} data-testid="call-transcript">
      {said.tags.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          {said.tags.map((tag) => (
            <Chip key={tag} label={tag} size="small" color="primary" data-testid="call-tag" />
          ))}
        </Stack>
      )}
      {said.matches.map((m) => (
        <Typography key={m.rule_id} variant="body2" color="text.secondary" data-testid="call-keyword">
          {`${m.rule} (${m.effect.replace('_', ' ')}): the ${m.leg} said "${m.words}" at ${m.start.toFixed(1)} s`}
        </Typography>
      ))}
      <List dense disablePadding>
        {transcriptLines(said.legs).map((line) => (
          <ListItemButton
            key={`${line.leg}-${line.start}`}
            onClick={() => onSeek(line.start)}
            data-testid={`transcript-line-${line.leg}`}
          >
            <ListItemText
              primary={line.text}
              secondary={`${line.leg === 'caller' ? 'Caller' : 'Target'} · ${line.start.toFixed(1)} s`}
            />
          </ListItemButton>
        ))}
      </List>
    </Stack>
  );
}
