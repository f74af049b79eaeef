import { describe, expect, it } from 'vitest';
import type { TrunkForm } from '../utils/trunkForm';
import { emptyTrunk, trunkBody, trunkToForm, validateTrunk } from '../utils/trunkForm';

const filled = { ...emptyTrunk(), name: 'Carrier A', host: 'sip.carrier.example' };

describe('trunk dialog', () => {
  it('a new trunk needs a name and a host; the defaults are valid', () => {
    expect(validateTrunk(emptyTrunk())).toEqual({ name: 'Name is required', host: 'Host is required' });
    expect(validateTrunk(filled)).toEqual({});
  });

  it('catches numbers out of range, a bad prefix and no codecs', () => {
    const errors = validateTrunk({
      ...filled,
      port: '70000',
      strip_digits: 'x',
      max_channels: '0',
      dial_prefix: '9a',
      codecs: []
    });
    expect(Object.keys(errors).sort()).toEqual(['codecs', 'dial_prefix', 'max_channels', 'port', 'strip_digits']);
    expect(errors.port).toBe('Port must be a whole number from 1 to 65535');
  });

  it('digest needs a username and a secret, unless a secret is already stored', () => {
    const digest: TrunkForm = { ...filled, auth_type: 'digest' };
    expect(validateTrunk(digest)).toEqual({
      username: 'Digest authentication needs a username',
      secret: 'Digest authentication needs a secret'
    });
    expect(validateTrunk({ ...digest, username: 'acme' }, { hasSecret: true })).toEqual({});
  });

  it('sends numbers as numbers, a blank channel limit as no limit, and keeps a stored secret on edit', () => {
    const body = trunkBody({ ...filled, port: '5080', max_channels: '' });
    expect(body).toMatchObject({
      name: 'Carrier A',
      port: 5080,
      strip_digits: 0,
      max_channels: null,
      username: null,
      secret: null
    });
    expect('secret' in trunkBody(filled, { editing: true })).toBe(false);
    expect(trunkBody({ ...filled, secret: 's3cret' }, { editing: true }).secret).toBe('s3cret');
  });

  it('edits start from the listed trunk, with the secret blank', () => {
    const listed = {
      id: 4,
      name: 'B',
      direction: 'inbound',
      host: '10.0.0.1',
      port: 5060,
      transport: 'tcp',
      auth_type: 'ip',
      username: null,
      has_secret: true,
      dial_prefix: '',
      strip_digits: 1,
      codecs: ['alaw'],
      max_channels: 30,
      qualify: false,
      failover_order: 2
    };
    const form = trunkToForm(listed);
    expect(form).toMatchObject({
      name: 'B',
      port: '5060',
      username: '',
      secret: '',
      max_channels: '30',
      codecs: ['alaw'],
      qualify: false
    });
    expect(trunkBody(form, { editing: true })).toMatchObject({
      port: 5060,
      max_channels: 30,
      direction: 'inbound',
      transport: 'tcp',
      vendor_id: null
    });
    expect(trunkBody(trunkToForm({ ...listed, vendor_id: 3 })).vendor_id).toBe(3);
  });
});
