import { describe, expect, it } from 'vitest';
import { emptyUser, namesById, userBody, userToForm, validateUser } from '../utils/userForm';

const filled = { ...emptyUser(), name: ' Acme Ltd ', email: 'ops@acme.example', password: 'secret123' };

describe('user dialog', () => {
  it('a new user needs a name, an email and a strong enough password', () => {
    expect(validateUser(emptyUser())).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      password: 'Password is required'
    });
    expect(validateUser({ ...filled, password: 'letters only' }).password).toBe(
      'Password must contain a letter and a digit'
    );
    expect(validateUser(filled)).toEqual({});
  });

  it('an edit keeps the password unless a new one is typed', () => {
    expect(validateUser({ ...filled, password: '' }, { editing: true })).toEqual({});
    expect(validateUser({ ...filled, password: 'short1' }, { editing: true }).password).toBe(
      'Password must be at least 8 characters'
    );
    expect('password' in userBody({ ...filled, password: '' }, { editing: true })).toBe(false);
    expect(userBody(filled, { editing: true }).password).toBe('secret123');
  });

  it('a customer carries its tariff (null when none, so an edit can clear it); an administrator none', () => {
    expect(userBody({ ...filled, tariff_id: 7 })).toMatchObject({
      name: 'Acme Ltd',
      tariff_id: 7,
      company: null,
      phone: null
    });
    expect(userBody(filled).tariff_id).toBeNull();
    expect('tariff_id' in userBody({ ...filled, kind: 'admin', tariff_id: 7 })).toBe(false);
  });

  it('checks the lengths the server allows', () => {
    const errors = validateUser({
      ...filled,
      name: 'x'.repeat(121),
      phone: '1'.repeat(33),
      company: 'c'.repeat(161),
      timezone: ''
    });
    expect(Object.keys(errors).sort()).toEqual(['company', 'name', 'phone', 'timezone']);
  });

  it('edits start from the listed user; the list names tariffs by id', () => {
    const listed = {
      id: 5,
      name: 'Acme',
      email: 'a@b.co',
      role: 2,
      timezone: 'Europe/Berlin',
      tariff_id: 3,
      company: null,
      phone: '+4930'
    };
    expect(userToForm(listed)).toEqual({
      kind: 'customer',
      name: 'Acme',
      email: 'a@b.co',
      password: '',
      timezone: 'Europe/Berlin',
      tariff_id: 3,
      company: '',
      phone: '+4930'
    });
    expect(userToForm({ ...listed, role: 1 }).kind).toBe('admin');
    expect('tariff_id' in userBody(userToForm({ ...listed, role: 3 }))).toBe(false); // a buyer's sign-in
    expect(namesById([{ id: 3, name: 'Retail' }])[3]).toBe('Retail');
  });
});
