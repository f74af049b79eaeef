import { describe, expect, it } from 'vitest';
import {
  firstFieldErrors,
  phoneProblem,
  validateChangePassword,
  validateLogin,
  validatePassword,
  validateRegister,
  validateResetPassword
} from '../utils/validation';

describe('form validation', () => {
  it('sign-in needs a valid email and a password', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required'
    });
    expect(validateLogin({ email: 'x@', password: 'p' })).toEqual({ email: 'Must be a valid email' });
    expect(validateLogin({ email: 'a@b.co', password: 'p' })).toEqual({});
  });

  it('register password: at least 8 chars with a letter and a digit', () => {
    expect(validatePassword('short1')).toMatch(/at least 8/);
    expect(validatePassword('abcdefgh')).toMatch(/letter and a digit/);
    expect(validatePassword('12345678')).toMatch(/letter and a digit/);
    expect(validatePassword('abcd1234')).toBe('');
  });

  it('register checks every field and the confirmation', () => {
    const ok = { name: 'Acme', email: 'a@b.co', password: 'abcd1234', confirm: 'abcd1234', timezone: 'UTC' };
    expect(validateRegister(ok)).toEqual({});
    expect(validateRegister({ ...ok, confirm: 'abcd12345' })).toEqual({ confirm: 'Passwords do not match' });
    expect(Object.keys(validateRegister({}))).toEqual(['name', 'email', 'password', 'confirm', 'timezone']);
  });

  it('change password', () => {
    expect(validateChangePassword({ current: 'x', next: 'abcd1234', confirm: 'abcd1234' })).toEqual({});
    expect(validateChangePassword({ current: '', next: 'a', confirm: 'b' })).toHaveProperty('current');
  });

  it('maps server field errors to the first message', () => {
    expect(firstFieldErrors({ email: ['taken', 'other'], name: 'bad' })).toEqual({ email: 'taken', name: 'bad' });
    expect(firstFieldErrors(undefined)).toEqual({});
  });
});

describe('reset password form', () => {
  it('needs a valid new password, confirmed', () => {
    expect(validateResetPassword({ next: '', confirm: '' })).toEqual({
      next: 'Password is required',
      confirm: 'Please confirm the new password'
    });
    expect(validateResetPassword({ next: 'abcd1234', confirm: 'abcd1235' })).toEqual({
      confirm: 'Passwords do not match'
    });
    expect(validateResetPassword({ next: 'abcd1234', confirm: 'abcd1234' })).toEqual({});
  });
});

describe('phoneProblem', () => {
  it('takes digits with spaces, brackets, dashes and a leading +, and refuses anything else', () => {
    for (const ok of ['', '+44 20 7946 0713', '030 12345678', '(415) 555-0132']) expect(phoneProblem(ok)).toBe('');
    expect(phoneProblem('abc-not-a-phone')).toBe('Must be a phone number, such as +44 20 7946 0713');
    expect(phoneProblem('1'.repeat(33))).toBe('Phone must be at most 32 characters');
  });
});
