/** What the auth domain's services answer in words. */
import { THROTTLED } from './throttle';

export const AUTH_MESSAGES = {
  registered: 'Registration successful. Please check your email to verify your account.',
  emailTaken: 'An account with this email already exists',
  invalidLogin: 'Invalid email or password',
  notVerified: 'Email not verified',
  throttled: THROTTLED,
  notAuthenticated: 'Not authenticated',
  invalidToken: 'Could not validate credentials',
  expiredToken: 'Token has expired',
  invalidVerifyToken: 'Invalid or expired verification token',
  alreadyVerified: 'This email is already verified. Please sign in.',
  invalidResetToken: 'Invalid or expired reset token',
  invalidRefreshToken: 'Invalid or expired refresh token',
  refreshReused: 'Refresh token already used; the session has been signed out',
  signedOut: 'Signed out',
  resendSent:
    'If an account with this email needs verification, a new verification email has been sent.',
  resendCooldown: (seconds: number) =>
    `If an account with this email needs verification, an email was sent recently. You can ask for another in ${seconds} seconds.`,
  resetSent: 'If an account with this email exists, a password reset email has been sent.',
  resetDone: 'Password has been reset successfully. Please sign in with your new password.',
  passwordChanged: 'Password changed successfully',
  wrongCurrentPassword: 'Current password is incorrect',
  samePassword: 'New password must be different from current password',
  noPassword: 'Password change is not available for Google or wallet accounts',
} as const;
