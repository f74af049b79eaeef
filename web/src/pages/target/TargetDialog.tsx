// Add or edit one target: its buyer (fixed once created), where it is dialled and through which
// trunk, its caps, its open hours in its own time zone, the payout per call, and whether it bids for
// calls in real time (docs/bidding.md).
import { useEffect, useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Grid from '@mui/material/Grid';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';

import FormDialog, { SelectField } from '../../components/FormDialog';
import { ZonePicker } from '../../components/NamePicker';
import RegionRulesFields from '../../components/RegionRulesFields';
import { call } from '../../api/client';
import {
  buyersDetails,
  targetsAdd,
  targetsUpdate,
  trunksOutbound,
  type TargetIn,
  type TargetRow,
  type TargetUpdate
} from '../../client';
import { failureMessage } from '../../hooks/apiFailure';
import useFormDialog from '../../hooks/useFormDialog';
import { CAPS, DAYS, emptyTarget, targetBody, targetToForm, validateTarget } from '../../utils/targetForm';
import { timeZoneList } from '../../utils/time';
import {
  emptyTargetRules,
  rulesError,
  targetRulesBody,
  targetRulesToForm,
  validateTargetRules
} from '../../utils/regionRules';
import { testId } from '../../components/testId';
import { getStoredUser } from '../../utils/storage';

// The target's form with its caller-region settings beside the rest (utils/regionRules.js). A new
// one starts in the account's zone: a customer's own; an admin's leaves it to the API (the customer's).
const toForm = (target: TargetRow | null, admin = false) =>
  target
    ? { ...targetToForm(target), region: targetRulesToForm(target.region_rules) }
    : { ...emptyTarget(admin ? '' : (getStoredUser()?.timezone ?? '')), region: emptyTargetRules() };

// Customers have a handful of buyers; the picker lists up to the API's page size.
const BUYER_PAGE = 500;

/** A select's [value, label] pair. */
type Choice = [string, string];

interface TargetDialogProps {
  open: boolean;
  target: TargetRow | null;
  admin: boolean;
  onClose: () => void;
  onSaved: (notice: string) => void;
}

export default function TargetDialog({ open, target, admin, onClose, onSaved }: TargetDialogProps) {
  const editing = target !== null;
  const { values, set, errors, message, saving, field, reset, submit } = useFormDialog('target', toForm(null, admin));
  const [buyerOptions, setBuyerOptions] = useState<Choice[]>([]);
  const [trunkOptions, setTrunkOptions] = useState<Choice[]>([]);
  const [loadError, setLoadError] = useState('');
  const zones = useMemo(() => timeZoneList(), []);

  useEffect(() => {
    if (!open) return;
    reset(toForm(target, admin));
    let cancelled = false;
    Promise.all([
      target ? null : call(buyersDetails({ query: { page: 1, perpage: BUYER_PAGE, params: '' } })),
      call(trunksOutbound())
    ])
      .then(([buyerPage, trunks]) => {
        if (cancelled) return;
        setLoadError('');
        const active = (buyerPage?.data ?? []).filter((b) => b.status === 'active');
        setBuyerOptions(
          active.map((b): Choice => [String(b.id), admin ? `${b.name} (customer ${b.user_id})` : b.name])
        );
        const list = (trunks ?? []).map((t): Choice => [String(t.id), t.name]);
        // An edited target keeps showing its trunk even when that trunk is inactive now.
        if (target?.trunk_id && !list.some(([id]) => id === String(target.trunk_id))) {
          list.push([String(target.trunk_id), `${target.trunk_name ?? target.trunk_id} (inactive)`]);
        }
        setTrunkOptions(list);
      })
      .catch(
        (err: unknown) => !cancelled && setLoadError(failureMessage(err, 'Buyers and trunks could not be loaded.'))
      );
    return () => {
      cancelled = true;
    };
  }, [open, target, admin, reset]);

  const save = async () => {
    const saved = await submit(
      (v) => ({ ...validateTarget(v, { editing }), ...validateTargetRules(v.region) }),
      () => {
        // utils/targetForm's TargetBody is this body; the generated TargetIn/TargetUpdate spell the
        // API's cross-field rules (a post URL or a minimum bid needs a ping URL; a day's hours are
        // always a list) as types a form's body can't show statically. The server checks them (422).
        const body = { ...targetBody(values, { editing }), region_rules: targetRulesBody(values.region) };
        return editing
          ? call(targetsUpdate({ path: { id: target.id }, body: body as TargetUpdate }))
          : call(targetsAdd({ body: body as TargetIn }));
      },
      'The target could not be saved.'
    );
    if (saved) onSaved(`Target ${saved.name} ${editing ? 'saved' : 'created'}.`);
  };

  const setHours = (day: string, text: string) => set('hours', { ...values.hours, [day]: text });

  return (
    <FormDialog
      open={open}
      name="target"
      title={editing ? `Edit target ${target.name}` : 'Add target'}
      message={message || loadError}
      saving={saving}
      saveLabel={editing ? 'Save' : 'Add target'}
      onClose={onClose}
      onSave={save}
      maxWidth="md"
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField {...field('name', 'Name')} autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          {editing ? (
            <TextField
              label="Buyer"
              value={target.buyer_name ?? target.buyer_id}
              fullWidth
              size="small"
              disabled
              helperText="A target stays with its buyer"
            />
          ) : (
            <SelectField
              {...field('buyer_id', 'Buyer', {
                helperText: buyerOptions.length ? ' ' : 'Add a buyer first (Buyer screen)'
              })}
              options={buyerOptions}
            />
          )}
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('destination', 'Destination', { helperText: 'E.164 number (+14155550100) or sip:user@host' })}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <SelectField
            {...field('trunk_id', 'Outbound trunk', {
              helperText: values.trunk_id
                ? 'The carrier the call goes out through'
                : 'No trunk: calls never reach this target until one is set'
            })}
            options={[['', 'None: not dialled'], ...trunkOptions]}
            slotProps={{
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
              formHelperText: { sx: values.trunk_id ? {} : { color: 'warning.main' } },
              htmlInput: { 'data-testid': 'target-trunk_id' }
            }}
          />
        </Grid>
        {CAPS.map(([cap, label]) => (
          <Grid key={cap} size={{ xs: 6, sm: 3 }}>
            <TextField {...field(cap, label, { helperText: 'Empty: no limit' })} />
          </Grid>
        ))}
        <Grid size={{ xs: 12, sm: 6 }}>
          <ZonePicker
            label="Time zone"
            zones={zones}
            value={values.timezone}
            onChange={(zone) => set('timezone', zone)}
            testId="target-timezone"
            error={errors.timezone}
            helperText={values.timezone ? 'Open hours are in this zone' : "Empty: the customer's zone"}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField
            {...field('payout', 'Payout per call', { helperText: 'What the buyer pays for a converted call' })}
          />
        </Grid>
        <Grid size={12}>
          <Typography variant="subtitle1">Real-time bidding</Typography>
          <FormControlLabel
            control={
              <Switch
                checked={values.bidding}
                onChange={(e) => set('bidding', e.target.checked)}
                slotProps={{ input: { ...testId('target-bidding') } }}
              />
            }
            label="Ask this buyer for a bid on each call (ping/post)"
          />
        </Grid>
        {values.bidding && (
          <>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                {...field('ping_url', 'Ping URL', {
                  helperText: 'Gets the caller\'s region and the campaign; answers {"bid": 12.50}'
                })}
              />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField
                {...field('post_url', 'Post URL', {
                  helperText: "Told it won, with the caller's number; empty: the ping URL"
                })}
              />
            </Grid>
            <Grid size={{ xs: 6, sm: 3 }}>
              <TextField {...field('bid_deadline_ms', 'Bid deadline (ms)', { helperText: 'Later bids are skipped' })} />
            </Grid>
            <Grid size={{ xs: 6, sm: 3 }}>
              <TextField {...field('min_bid', 'Minimum bid', { helperText: 'Empty: any bid above 0' })} />
            </Grid>
          </>
        )}
        <Grid size={12}>
          <Typography variant="subtitle1">Open hours</Typography>
          <FormControlLabel
            control={
              <Switch
                checked={values.always_open}
                onChange={(e) => set('always_open', e.target.checked)}
                slotProps={{ input: { ...testId('target-always_open') } }}
              />
            }
            label="Open around the clock"
          />
          {errors.hours && (
            <Alert severity="error" sx={{ my: 1 }}>
              {errors.hours}
            </Alert>
          )}
        </Grid>
        {!values.always_open &&
          DAYS.map(([day, name]) => (
            <Grid key={day} size={{ xs: 12, sm: 6 }}>
              <TextField
                label={name}
                value={values.hours[day]}
                onChange={(e) => setHours(day, e.target.value)}
                error={Boolean(errors[`hours.${day}`])}
                helperText={errors[`hours.${day}`] || 'e.g. 09:00-12:00, 13:00-17:30; empty: closed'}
                fullWidth
                size="small"
                slotProps={{ htmlInput: { 'data-testid': `target-hours-${day}`, 'aria-label': `${name} hours` } }}
              />
            </Grid>
          ))}
        <Grid size={12}>
          <RegionRulesFields
            kind="target"
            value={values.region}
            onChange={(region) => set('region', region)}
            error={rulesError(errors)}
          />
        </Grid>
      </Grid>
    </FormDialog>
  );
}
