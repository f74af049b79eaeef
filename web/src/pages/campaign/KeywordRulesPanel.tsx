// A campaign's keyword rules: when the caller, the target or either says one of a rule's phrases,
// the call is tagged, converted, made not billable to the buyer, or scored. Self-contained (it reads
// and saves the rules itself), so it can sit in a dialog or in the campaign's page.
import { useEffect, useState } from 'react';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';

import DialogMessages from '../../components/DialogMessages';
import { SelectField } from '../../components/FormDialog';
import { EmptyRow } from '../../components/ListParts';
import { testId } from '../../components/testId';
import { call } from '../../api/client';
import {
  conversationAddRule,
  conversationReapply,
  conversationRemoveRule,
  conversationRules,
  type KeywordEffect,
  type KeywordRuleOut,
  type KeywordSide
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';

const SIDES: [KeywordSide, string][] = [
  ['caller', 'Caller'],
  ['target', 'Target'],
  ['either', 'Either side']
];
const EFFECTS: [KeywordEffect, string][] = [
  ['tag', 'Tag the call'],
  ['convert', 'Mark converted'],
  ['not_billable', 'Not billable to the buyer'],
  ['score', 'Raise the score']
];
const EMPTY = {
  name: '',
  phrases: '',
  side: 'caller' as KeywordSide,
  effect: 'tag' as KeywordEffect,
  tag: '',
  score: '0'
};

interface KeywordRulesPanelProps {
  campaign: { id: number; name: string };
}

export default function KeywordRulesPanel({ campaign }: KeywordRulesPanelProps) {
  const [rules, setRules] = useState<KeywordRuleOut[]>([]);
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  const reload = () =>
    call(conversationRules({ path: { id: campaign.id } }))
      .then(setRules)
      .catch((err: unknown) => setError(failureMessage(err, 'The rules could not be loaded.')));
  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [campaign.id]);
  const act = async (work: () => Promise<string>) => {
    setBusy(true);
    setError('');
    setNotice('');
    try {
      setNotice(await work());
      await reload();
    } catch (err) {
      setError(failureMessage(err, 'That did not work.'));
    } finally {
      setBusy(false);
    }
  };
  const add = () =>
    act(async () => {
      const { data } = await conversationAddRule({
        path: { id: campaign.id },
        body: {
          name: form.name,
          phrases: form.phrases
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean),
          side: form.side,
          effect: form.effect,
          tag: form.tag.trim() || null,
          score: Number(form.score) || 0
        }
      });
      setForm(EMPTY);
      return data.message;
    });
  const field = (key: keyof typeof EMPTY) => ({
    value: form[key],
    size: 'small' as const,
    onChange: (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value }),
    slotProps: { htmlInput: testId(`keyword-rule-${key}`) }
  });
  return (
    <Stack spacing={2} data-testid="keyword-rules">
      <Typography variant="body2" color="text.secondary">
        Recorded calls are transcribed (English) and matched against these rules once the call ends. Phrases are
        comma-separated; a word may be alternatives (appointment|appointments) or a prefix (book*).
      </Typography>
      <DialogMessages error={error} notice={notice} testid="keyword-rules" />
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>Rule</TableCell>
            <TableCell>Phrases</TableCell>
            <TableCell>Said by</TableCell>
            <TableCell>Effect</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {rules.length === 0 && <EmptyRow colSpan={5} text="No keyword rules yet." />}
          {rules.map((rule) => (
            <TableRow key={rule.id} data-testid="keyword-rule-row">
              <TableCell>{rule.name}</TableCell>
              <TableCell>{rule.phrases.join(', ')}</TableCell>
              <TableCell>{SIDES.find(([v]) => v === rule.side)?.[1]}</TableCell>
              <TableCell>
                {EFFECTS.find(([v]) => v === rule.effect)?.[1]}
                {rule.tag ? ` · tag ${rule.tag}` : ''}
                {rule.effect === 'score' ? ` · ${rule.score}` : ''}
              </TableCell>
              <TableCell align="right">
                <IconButton
                  size="small"
                  aria-label={`Remove rule ${rule.name}`}
                  disabled={busy}
                  onClick={() =>
                    act(async () => {
                      const { data } = await conversationRemoveRule({ path: { id: campaign.id, rule_id: rule.id } });
                      return data.message;
                    })
                  }
                >
                  <DeleteOutlined />
                </IconButton>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ flexWrap: 'wrap' }}>
        <TextField label="Name" {...field('name')} />
        <TextField label="Phrases" {...field('phrases')} sx={{ minWidth: 220 }} />
        <SelectField label="Said by" options={SIDES} {...field('side')} />
        <SelectField label="Effect" options={EFFECTS} {...field('effect')} />
        <TextField label="Tag" {...field('tag')} sx={{ width: 130 }} />
        {form.effect === 'score' && <TextField label="Score" {...field('score')} sx={{ width: 90 }} />}
      </Stack>
      <Stack direction="row" spacing={1}>
        <Button
          variant="contained"
          startIcon={<PlusOutlined />}
          disabled={busy}
          onClick={add}
          data-testid="keyword-rule-add"
        >
          Add rule
        </Button>
        <Button
          variant="outlined"
          startIcon={<ReloadOutlined />}
          disabled={busy}
          onClick={() =>
            act(async () => {
              const { data } = await conversationReapply({ path: { id: campaign.id } });
              return data.message;
            })
          }
          data-testid="keyword-rules-reapply"
        >
          Apply to past calls
        </Button>
      </Stack>
    </Stack>
  );
}
