// A campaign's or a buyer's webhooks (docs/webhooks.md): add, edit, pause or resume, a new secret,
// remove; each shows its secret on request, to check the signature with. Shown in WebhooksDialog (a
// buyer's) and on the campaign page's Webhooks tab.
import { useEffect, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import {
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  KeyOutlined,
  PauseOutlined,
  PlayCircleOutlined
} from '@ant-design/icons';

import DialogMessages from './DialogMessages';
import { EmptyRow } from './ListParts';
import { call } from '../api/client';
import {
  webhooksAdd,
  webhooksDetails,
  webhooksRemove,
  webhooksSecret,
  webhooksStatus,
  webhooksUpdate,
  type WebhookOut
} from '../client';
import { failureMessage, failureOf } from '../hooks/apiFailure';
import type { FieldErrors } from '../utils/validation';
import {
  BUYER_EVENTS,
  EVENTS,
  emptyWebhook,
  toggleEvent,
  validateWebhook,
  webhookBody,
  webhookToForm,
  type WebhookOwner
} from '../utils/webhookForm';
import { testId } from './testId';

interface WebhooksPanelProps {
  owner: WebhookOwner;
}

/** The server's field errors by form field (`events.0` is the events' error). */
function formErrors(errors: Record<string, string[] | string> | undefined): Record<string, string> {
  if (!errors) return {};
  return Object.fromEntries(
    Object.entries(errors).map(([f, m]) => [f.split('.')[0] ?? f, String(Array.isArray(m) ? m[0] : m)])
  );
}

/** `owner` is `{campaign_id}` or `{buyer_id}`; mounted while shown, so each opening reads afresh. */
export default function WebhooksPanel({ owner }: WebhooksPanelProps) {
  const buyer = 'buyer_id' in owner;
  const campaignId = 'campaign_id' in owner ? owner.campaign_id : undefined;
  const buyerId = 'buyer_id' in owner ? owner.buyer_id : undefined;
  const [hooks, setHooks] = useState<WebhookOut[]>([]);
  const [values, setValues] = useState(emptyWebhook());
  const [editing, setEditing] = useState<WebhookOut | null>(null); // the webhook being edited, or null: a new one
  const [errors, setErrors] = useState<FieldErrors>({});
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const [shown, setShown] = useState<Record<number, boolean>>({}); // webhook id -> its secret is shown
  const [busy, setBusy] = useState(false);
  // Bumped to read the list again after a change.
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    let alive = true;
    const whose = campaignId !== undefined ? { campaign_id: campaignId } : { buyer_id: buyerId };
    call(webhooksDetails({ query: { page: 1, perpage: 100, params: '', ...whose } }))
      .then((page) => alive && setHooks(page.data ?? []))
      .catch((err: unknown) => alive && setError(failureMessage(err, 'The webhooks could not be loaded.')));
    return () => {
      alive = false;
    };
  }, [campaignId, buyerId, asked]);

  const run = async (send: () => Promise<unknown>, text: string) => {
    setError('');
    setNotice('');
    setBusy(true);
    try {
      await send();
      setNotice(text);
      setAsked((n) => n + 1);
      return true;
    } catch (err) {
      const failure = failureOf(err);
      const fields = formErrors(failure.errors);
      setErrors(fields);
      setError(fields.url || fields.events ? '' : failure.message || 'The change could not be saved.');
      return false;
    } finally {
      setBusy(false);
    }
  };

  const save = async () => {
    const found = validateWebhook(values, { buyer });
    setErrors(found);
    if (Object.keys(found).length) return;
    const sent = editing
      ? run(() => call(webhooksUpdate({ path: { id: editing.id }, body: webhookBody(values) })), 'Webhook saved.')
      : run(() => {
          const { url, events: chosen } = webhookBody(values);
          return call(webhooksAdd({ body: { ...owner, url, events: chosen } }));
        }, 'Webhook added.');
    if (await sent) edit(null);
  };

  /** Edit `hook`, or (null) go back to adding a new one. */
  const edit = (hook: WebhookOut | null) => {
    setEditing(hook);
    setValues(hook ? webhookToForm(hook) : emptyWebhook());
    setErrors({});
  };
  const paused = (hook: WebhookOut) => hook.status === 'paused';
  const events = buyer ? BUYER_EVENTS : EVENTS;

  return (
    <>
      <DialogMessages error={error} notice={notice} testid="webhooks" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Each chosen call event is POSTed as JSON, signed with the webhook&apos;s secret (X-Callroute-Signature). A URL
        may carry tokens such as {'{caller}'}, {'{did}'}, {'{duration}'}, {'{payout}'}.
      </Typography>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" data-testid="webhooks-table">
          <TableHead>
            <TableRow>
              <TableCell>URL</TableCell>
              <TableCell>Events</TableCell>
              <TableCell>Secret</TableCell>
              <TableCell align="right">Action</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {hooks.map((hook) => (
              <TableRow key={hook.id} data-testid="webhook-row" data-url={hook.url}>
                <TableCell sx={{ wordBreak: 'break-all', maxWidth: 280 }}>
                  {hook.url}
                  {paused(hook) && (
                    <Tooltip title={hook.paused_reason ?? ''}>
                      <Chip
                        size="small"
                        variant="light"
                        color="warning"
                        label="paused"
                        sx={{ ml: 1 }}
                        data-testid="webhook-paused"
                      />
                    </Tooltip>
                  )}
                </TableCell>
                <TableCell>{hook.events.join(', ')}</TableCell>
                <TableCell
                  sx={{ fontFamily: 'monospace', wordBreak: 'break-all', maxWidth: 200 }}
                  data-testid="webhook-secret"
                >
                  {shown[hook.id] ? hook.secret : '••••••••'}
                  <IconButton
                    size="small"
                    aria-label="Show secret"
                    onClick={() => setShown((s) => ({ ...s, [hook.id]: !s[hook.id] }))}
                    data-testid="webhook-show-secret"
                  >
                    <EyeOutlined />
                  </IconButton>
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <IconButton
                    size="small"
                    color="primary"
                    aria-label={`Edit ${hook.url}`}
                    disabled={busy}
                    onClick={() => edit(hook)}
                    data-testid="webhook-edit"
                  >
                    <EditOutlined />
                  </IconButton>
                  <IconButton
                    size="small"
                    color="primary"
                    aria-label={paused(hook) ? 'Resume' : 'Pause'}
                    disabled={busy}
                    onClick={() =>
                      run(
                        () =>
                          call(
                            webhooksStatus({
                              path: { id: hook.id },
                              body: { status: paused(hook) ? 'active' : 'paused' }
                            })
                          ),
                        paused(hook) ? 'Webhook resumed.' : 'Webhook paused.'
                      )
                    }
                    data-testid="webhook-pause"
                  >
                    {paused(hook) ? <PlayCircleOutlined /> : <PauseOutlined />}
                  </IconButton>
                  <IconButton
                    size="small"
                    color="primary"
                    aria-label="New secret"
                    disabled={busy}
                    onClick={() =>
                      run(
                        () => call(webhooksSecret({ path: { id: hook.id } })),
                        'New secret: the old one no longer signs.'
                      )
                    }
                    data-testid="webhook-secret-new"
                  >
                    <KeyOutlined />
                  </IconButton>
                  <IconButton
                    size="small"
                    color="error"
                    aria-label={`Remove ${hook.url}`}
                    disabled={busy}
                    onClick={() => run(() => call(webhooksRemove({ path: { id: hook.id } })), 'Webhook removed.')}
                    data-testid="webhook-remove"
                  >
                    <DeleteOutlined />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
            {hooks.length === 0 && <EmptyRow colSpan={4} text="No webhooks yet." />}
          </TableBody>
        </Table>
      </Box>
      <Typography variant="h6" sx={{ mt: 3, mb: 1 }}>
        {editing ? 'Edit webhook' : 'Add a webhook'}
      </Typography>
      <TextField
        label="URL"
        value={values.url}
        onChange={(e) => setValues((v) => ({ ...v, url: e.target.value }))}
        error={Boolean(errors.url)}
        helperText={errors.url || 'https://… — tokens in braces are filled from the call'}
        fullWidth
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'webhook-url', 'aria-label': 'URL' } }}
      />
      <Stack direction="row" sx={{ flexWrap: 'wrap', mt: 1 }}>
        {events.map(([value, label]) => (
          <FormControlLabel
            key={value}
            label={label}
            control={
              <Checkbox
                checked={values.events.includes(value)}
                onChange={(e) => setValues((v) => ({ ...v, events: toggleEvent(v.events, value, e.target.checked) }))}
                slotProps={{ input: { ...testId(`webhook-event-${value}`) } }}
              />
            }
          />
        ))}
      </Stack>
      {errors.events && <FormHelperText error>{errors.events}</FormHelperText>}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button variant="contained" onClick={save} disabled={busy} data-testid="webhook-save">
          {editing ? 'Save webhook' : 'Add webhook'}
        </Button>
        {editing && (
          <Button onClick={() => edit(null)} disabled={busy}>
            Cancel edit
          </Button>
        )}
      </Stack>
    </>
  );
}
