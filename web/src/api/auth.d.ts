// Stand-in types for api/auth.js: the declarations of its TypeScript version on branch web-core,
// so the pages type-check against them now. Delete once api/auth.ts lands.
import { type Impersonating, type SignedIn } from '../client';
export interface Credentials {
  email: string;
  password: string;
}
export interface SignUp extends Credentials {
  name: string;
  timezone: string;
}
/** A sign-up the server finishes by mail (202): no session yet. */
export interface PendingSignUp {
  pending: true;
  message: string;
}
export declare function login({ email, password }: Credentials): Promise<SignedIn>;
/** Asks for a reset link; resolves to the message to show (the same for any address). */
export declare function forgotPassword(email: string): Promise<string>;
/** Sets a new password with the token of a reset link. */
export declare function resetPassword(token: string, newPassword: string): Promise<string>;
/**
 * Signs up. Where the server mails a link to finish (202), resolves to { pending: true, message }
 * without a session; otherwise stores the new session and resolves to { token, user }.
 */
export declare function register({ name, email, password, timezone }: SignUp): Promise<SignedIn | PendingSignUp>;
/** The page a sign-up mail links to: creates the account and stores its session. */
export declare function confirmRegistration(token: string): Promise<SignedIn>;
/** Spec §4: call the logout endpoint, then clear local storage and reload, whether or not it succeeded. */
export declare function logout({ reload }?: { reload?: () => void }): Promise<void>;
/** Admin acts as another user (spec §4). Saves the admin session, swaps in the new one, reloads on /dashboard. */
export declare function impersonate(
  userId: number,
  {
    go
  }?: {
    go?: (url: string) => void;
  }
): Promise<Impersonating>;
export declare const RETURN_MESSAGES: {
  readonly missingId: 'Missing impersonator_id. Cannot return to admin.';
  readonly noData: 'Failed to return to admin: No data received.';
  readonly noSession: 'Failed to return to admin: Original session data missing.';
  readonly failed: 'Failed to logout impersonated user';
};
export interface ReturnOptions {
  notify?: (message: string) => void;
  go?: (url: string) => void;
}
/**
 * Back To Admin (spec §4, §5, §8). Returns true when the admin session was restored.
 */
export declare function returnToAdmin({ notify, go }?: ReturnOptions): Promise<boolean>;
