// Stand-in types for utils/validation.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once utils/validation.ts lands.
/** A form's problems: field -> message, only for the fields that have one. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;
/** A refused call as the forms read it: the spec §8 error's message and its `{field: [messages]}`. */
export interface RefusedSave {
  message?: string;
  errors?: Record<string, string[] | string> | undefined;
}
export interface LoginValues {
  email: string;
  password: string;
}
export interface RegisterValues {
  name: string;
  email: string;
  password: string;
  confirm: string;
  timezone: string;
}
export interface ChangePasswordValues {
  current: string;
  next: string;
  confirm: string;
}
export declare function validateEmail(email: string | null | undefined): string;
export declare function validatePassword(password: string | null | undefined): string;
export declare function validateLogin({ email, password }: LoginValues): FieldErrors<keyof LoginValues>;
export declare function validateRegister({
  name,
  email,
  password,
  confirm,
  timezone
}: RegisterValues): FieldErrors<keyof RegisterValues>;
export declare function validateChangePassword({
  current,
  next,
  confirm
}: ChangePasswordValues): FieldErrors<keyof ChangePasswordValues>;
/** The reset-password form: a valid new password, confirmed. */
export declare function validateResetPassword({
  next,
  confirm
}: Pick<ChangePasswordValues, 'next' | 'confirm'>): FieldErrors<'next' | 'confirm'>;
/**
 * What a form's banner says about a refused save: nothing when the server named a field the form
 * shows (that field says it, once), else the server's message or `fallback`.
 */
export declare function bannerMessage(
  err: RefusedSave | null | undefined,
  shownFields: readonly string[],
  fallback: string
): string;
/** The message of something thrown (the parsers here throw an Error saying what is wrong). */
export declare function thrownMessage(err: unknown): string;
/** First message per field of a server `errors` object ({field: [msgs]}). */
export declare function firstFieldErrors(errors: RefusedSave['errors'] | null): FieldErrors;
