/**
 * Every user-facing message of the spec (sections 4, 5 and 8), once, grouped by area; the HTTP
 * catalogue lives with the HTTP errors in `http-errors.ts`. Components, the server and tests
 * import these instead of retyping them, so a wording change is one edit. Strings the spec quotes
 * are copied character for character; the few it only paraphrases say so, and so does each wording
 * of our own.
 */

import { GOAL_TYPE_UNITS, SUBJECT_LABELS } from './labels';
import type { GoalType, Subject } from './limits';

/** Validation messages of spec section 5 (the rules themselves live beside them in `src/lib/`). */
export const VALIDATION_MESSAGES = {
  nameRequired: 'Name is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordFieldsRequired: 'Please fill in all password fields',
  newPasswordsDiffer: 'New passwords do not match',
  newPasswordUnchanged: 'New password must be different from current password',
  noProfileChanges: 'No changes to save',
  avatarNotImage: 'Please select an image file',
  avatarTooLarge: 'File size must be less than 5MB',
  invalidConversion: 'Invalid amount to convert!',
  insufficientTokens: 'Insufficient tokens!',
  goalEditLocked: 'Goals with more than 50% progress cannot be edited.',
  goalSubjectLimit: 'You can only create a maximum of 3 courses at a time.',
  messageTooLong: 'Message can be up to 4000 characters only.',
  emailNotFound: 'Email address not found',
  /** Not quoted in the spec, which only disables Send; never shown as a toast. */
  messageEmpty: 'Message cannot be empty',
  /** Not quoted in the spec (create: "target number 1 to 999"). */
  goalTargetRange: 'Target must be a whole number from 1 to 999',
  /** Not quoted in the spec (edit: "minimum 1"). */
  goalTargetMin: 'Target must be a whole number of at least 1',
  /** Not quoted in the spec: a progress entry counts 1–999 problems, minutes or topics. */
  goalProgressRange: 'Enter a whole number from 1 to 999',
  /** Not quoted in the spec. */
  goalMinutesRange: 'Minutes must be a whole number from 0 to 1440',
  /** Not quoted in the spec. */
  goalTopicTooLong: 'A topic can be up to 200 characters',
  /** Not quoted in the spec (the conversion modal only disables its button). */
  conversionWhole: 'Enter a whole number of points',
  /** Not quoted in the spec. */
  conversionMinimum: 'Convert at least 100 points',
  /** Not quoted in the spec. */
  conversionStep: 'Convert points in steps of 10',
} as const;

/** Not quoted in the spec: the conversion modal's reason when the amount exceeds the balance. */
export function conversionOverBalance(balance: number): string {
  return `You have only ${balance} points`;
}

/** Sign-in and sign-out toasts (spec section 8, "Sign-in toasts"). */
export const SIGN_IN_MESSAGES = {
  /** Any authentication error. */
  invalidCredentials: 'Invalid email or password. Please check your credentials.',
  /** An error whose text contains "verify". */
  notVerified:
    'Your account has not been email verified. Please check your email and verify to continue.',
  /** An error about the email. */
  invalidEmail: 'Please enter a valid email address.',
  /** An error about the password. */
  passwordTooShort: 'Password must be at least 8 characters long.',
  signedIn: 'Signed in successfully!',
  signedOut: 'Signed out successfully',
} as const;

/** Sign-up toasts. */
export const SIGN_UP_MESSAGES = {
  emailTaken: 'An account with this email already exists. Please sign in instead.',
  fullNameRequired: 'Please enter your full name.',
  acceptTerms: 'Please accept the terms and privacy policy.',
} as const;

/** What a guest (signed-out widget) is told when reaching for a signed-in feature. */
export const GUEST_MESSAGES = {
  signInRequired: 'Please sign in to access all features',
} as const;

/** Google sign-in and the OAuth callback. */
export const OAUTH_MESSAGES = {
  googleFailed: 'Failed to sign in with Google. Please try again.',
  googleIncomplete: 'Failed to complete Google sign-in',
  noAccessToken: 'Authentication failed: No access token received',
  googleSignedIn: 'Successfully signed in with Google!',
} as const;

/**
 * Not quoted in the spec (issue 22 #1): a sign-in link (Google's return, a verification link) opened
 * while another account is signed in. The page asks; nothing changes until the student chooses.
 */
export const ACCOUNT_SWITCH_MESSAGES = {
  heading: 'You are already signed in',
  question: 'This link is for another account. Which account do you want to use?',
  current: 'Signed in now',
  incoming: 'From this link',
  keep: (name: string) => `Stay signed in as ${name}`,
  switchTo: (name: string) => `Switch to ${name}`,
  verifiedHeading: 'Email verified',
  /** A verification link of another account: verified, the current session kept. */
  verifiedElsewhere: (email: string, name: string) =>
    `${email} is verified. You are still signed in as ${name}.`,
} as const;

/** 'OAuth error: {error}' for the callback's `error` query parameter. */
export function oauthError(error: string): string {
  return `OAuth error: ${error}`;
}

/** The EIP-1193 error code a wallet uses when the user rejects a request. */
export const USER_REJECTED_CODE = 4001;

/** Wallet (MetaMask) sign-in. */
export const WALLET_MESSAGES = {
  metamaskMissing: 'MetaMask is not installed. Please install MetaMask extension.',
  connectionRejected: 'User rejected the connection request.',
  signatureRejected: 'User rejected the signature request.',
  noAccounts: 'No accounts found...',
} as const;

/** 'Please connect to your registered wallet address: {address}'. */
export function wrongWalletAddress(address: string): string {
  return `Please connect to your registered wallet address: ${address}`;
}

/**
 * The auth feature's own wordings. None is quoted in the spec, which names these situations (a
 * refused link, a wallet that does not answer, a call that fails without words) but gives no text.
 */
export const AUTH_MESSAGES = {
  /** Not quoted in the spec, which gives only a 5000 ms loading toast while MetaMask connects. */
  walletConnecting: 'Connecting to MetaMask...',
  /** Not quoted in the spec, which gives only the 30 s connect timeout. */
  walletConnectTimeout: 'MetaMask did not answer in time. Please try again.',
  /** Not quoted in the spec, which gives only the 60 s signature timeout. */
  walletSignTimeout: 'The signature request timed out. Please try again.',
  /** Not quoted in the spec: a wallet sign-in failed with no words of its own. */
  walletSignInFailed: 'Wallet sign-in failed. Please try again.',
  /** Not quoted in the spec: a verification link the server refused without saying why. */
  verifyLinkFailed: 'This verification link is invalid or has expired.',
  /** Not quoted in the spec: the reset page was opened without its `?token=`. */
  resetLinkMissing:
    'This reset link is incomplete. Please request a new one from the sign-in page.',
  /** Not quoted in the spec: completing onboarding failed without the server saying why. */
  onboardingFailed: 'Could not finish setting up. Please try again.',
  /** Not quoted in the spec: a sign-in or sign-up failed with no words of its own. */
  somethingWentWrong: 'Something went wrong. Please try again.',
} as const;

/** Settings: password change and profile. */
export const PROFILE_MESSAGES = {
  currentPasswordIncorrect: 'Current password is incorrect',
  weakNewPassword:
    'New password does not meet security requirements. Please choose a stronger password.',
  authFailed: 'Authentication failed. Please try logging in again.',
  updateFailed: 'Failed to update profile. Please try again.',
  avatarUploadFailed: 'Failed to upload profile picture',
} as const;

/** Password reset and email verification. The failures are defaults a server message replaces. */
export const RESET_VERIFY_MESSAGES = {
  /** Shown under the email field of the forgot-password form. */
  resetEmailFailed: 'Failed to send reset email. Please try again.',
  resetFailed: 'Failed to reset password.',
  /** Shown in red. */
  resendFailed: 'Failed to resend verification email',
  emailNotFound: VALIDATION_MESSAGES.emailNotFound,
  resetEmailSent: 'Password reset email sent!',
  passwordReset: 'Password reset successfully!',
  verificationResent: 'Verification email resent successfully!',
} as const;

/** Chat toasts. The successes are paraphrased in the spec; these are their wordings. */
export const CHAT_MESSAGES = {
  tooLong: VALIDATION_MESSAGES.messageTooLong,
  /** The last user message is removed as well. */
  sendFailed: 'Failed to send message. Please try again.',
  sessionNotFound: 'Chat session not found, starting new conversation',
  archiveAllFailed: 'Failed to archive all chats',
  deleteAllFailed: 'Failed to delete all chats',
  unarchiveFailed: 'Failed to unarchive chat',
  deleteFailed: 'Failed to delete chat',
  /** Not in the spec, which names no text for a failed archive of one chat. */
  archiveFailed: 'Failed to archive chat',
  /** Shown as an alert, not a toast. */
  deleteConversationFailed: 'Failed to delete conversation. Please try again.',
  renameFailed: 'Change name failed!',
  allArchived: 'All chats archived successfully',
  allDeleted: 'All chats deleted successfully',
  unarchived: 'Chat unarchived successfully',
  deleted: 'Chat deleted successfully',
  renamed: 'Chat renamed successfully',
  archived: 'Chat archived successfully',
} as const;

/** The assistant's first message in a reopened session that has no messages yet. */
export function welcomeBack(title: string): string {
  return `Welcome back to "${title}"! How can I help you continue this discussion?`;
}

/** The toast shown beside {@link welcomeBack}. */
export function startedConversation(title: string): string {
  return `Started conversation: ${title}`;
}

/** Goal toasts. */
export const GOAL_MESSAGES = {
  updateFailed: 'Failed to update goal',
  /** Logged, not shown. */
  fetchFailed: 'Failed to fetch goals',
  deleted: 'Goal deleted successfully',
  updated: 'Goal updated successfully!',
  /** Not quoted in the spec, which names no text for a failed delete. */
  deleteFailed: 'Failed to delete goal',
  /** Not quoted in the spec. */
  progressLogged: 'Progress logged!',
  /** Not quoted in the spec. */
  progressFailed: 'Failed to log progress',
  /** Not quoted in the spec: a create refused with no words of the server's own. */
  createFailed: 'Failed to create goal',
  /** Not quoted in the spec: the retryable empty state after 'Failed to fetch goals'. */
  fetchFailedShown: 'Your goals could not be loaded.',
} as const;

/**
 * A milestone celebration (25, 50, 75, 100 %). The spec names the milestones only, so the words are
 * ours: 'Halfway there! 50% of your Math goal is done.'.
 */
export function celebrationMessage(
  milestone: number,
  subject?: Subject,
  percent = milestone,
): string {
  const goal = subject ? `your ${SUBJECT_LABELS[subject]} goal` : 'your goal';
  // The goal's own percent, as its card shows it (a 15-problem goal at 5 is 33 %, not 25 %).
  const done = `${Math.round(Math.max(percent, milestone))}% of ${goal} is done.`;
  if (milestone >= 100) return `Goal complete! You finished ${goal} this week.`;
  if (milestone >= 75) return `Almost there! ${done}`;
  if (milestone >= 50) return `Halfway there! ${done}`;
  return `Great start! ${done}`;
}

/** Other messages. */
export const OTHER_MESSAGES = {
  transferFailed: 'Failed to submit Ayah transfer.',
} as const;

/**
 * The goal-created toast. The spec only says it names subject, type and target per week, so the
 * wording is ours: 'Math goal created: 10 problems per week!'.
 */
export function goalCreated(subject: Subject, goalType: GoalType, target: number): string {
  const unit = GOAL_TYPE_UNITS[goalType];
  return `${SUBJECT_LABELS[subject]} goal created: ${target} ${unit} per week!`;
}

/**
 * The wallet's result screens and notices. None is quoted in the spec, which names the states
 * (pending, success, failed) and says a failure keeps the points.
 */
export const WALLET_UI_MESSAGES = {
  /** Not quoted in the spec. */
  pendingTitle: 'Conversion pending',
  /** Not quoted in the spec. */
  pendingText:
    'Your conversion is still being processed. Your balance will update once it completes.',
  /** Not quoted in the spec. */
  successTitle: 'Conversion complete',
  /** Not quoted in the spec. */
  failedTitle: 'Conversion failed',
  /** Not quoted in the spec: the server gives the points back on failure. */
  failedText: 'The conversion did not go through. Your points were not spent.',
  /** Not quoted in the spec. */
  convertFailed: 'Could not convert your points. Your points were not spent.',
  /** Not quoted in the spec. */
  loadFailed: 'Could not load your wallet. Please try again.',
  /** Not quoted in the spec: what the reward token is, for students and their parents. */
  tokenExplained: (tokenName: string) =>
    `${tokenName} tokens are Ayah's reward tokens: you get them by converting the points you earn ` +
    `for learning. They are not money and cannot be bought, sold or cashed in; your school decides ` +
    `what they can be swapped for, such as a class reward or a certificate.`,
  /** Not quoted in the spec. */
  noActivity: 'No activity yet. Earn points by chatting with Ayah and reaching your goals.',
} as const;

/** Not quoted in the spec: the success screen's text. */
export function conversionSucceeded(points: number, tokens: number, tokenName: string): string {
  return `You converted ${points} points into ${tokens} ${tokenName}.`;
}

/** The window event the host fires after any award (onboarding, the 10th message, a goal at 100 %). */
export const REFRESH_WALLET_EVENT = 'refresh-wallet';

/** The window event that makes every chat list reload (spec section 4, "Chat sessions"). */
export const REFRESH_CHAT_HISTORY_EVENT = 'refresh-chat-history';

/** Settings wordings of our own (the spec quotes the validation and server messages only). */
export const SETTINGS_MESSAGES = {
  /** Not quoted in the spec. */
  profileSaved: 'Profile updated successfully!',
  /** Not quoted in the spec. */
  avatarUploaded: 'Profile picture updated!',
  /** Not quoted in the spec. */
  passwordChanged: 'Password changed successfully!',
  /** Not quoted in the spec: why a Google account has no password form. */
  googleNotice:
    'You signed in with Google, so your password is managed by your Google account. Change it there.',
  /** Not quoted in the spec: why a wallet account has no password form. */
  walletNotice:
    'You signed in with your crypto wallet, so your account has no password. Your wallet signature keeps it safe.',
  /** Not quoted in the spec. */
  noArchived: 'No archived chats.',
  /** Not quoted in the spec. */
  archivedLoadFailed: 'Could not load archived chats.',
  /** Not quoted in the spec. */
  exported: 'Your data was downloaded.',
  /** Not quoted in the spec. */
  exportFailed: 'Could not export your data. Please try again.',
  /** Not quoted in the spec. */
  accountDeleted: 'Your account was deleted.',
  /** Not quoted in the spec. */
  deleteAccountFailed: 'Could not delete your account. Please try again.',
  /** Not quoted in the spec. */
  confirmMismatch: 'That does not match. Type it exactly as shown.',
} as const;

/** Not quoted in the spec: what a first-time visitor is told on the auth and verify screens. */
export const FIRST_RUN_MESSAGES = {
  /** Beside a disabled 'Continue with Google' when the server has no Google configuration. */
  googleUnavailable: 'Google sign-in is not set up for this school.',
  /** A verification link opened again once the account is verified (the server's 409). */
  alreadyVerified: 'Your email is already verified. Please sign in.',
  /** The sign-up form's consent line; both nouns are links to /terms and /privacy. */
  consent: ['By signing up you agree to the ', 'Terms', ' and the ', 'Privacy notice', '.'],
} as const;

/** Not quoted in the spec: when the server's resend cooldown lets another verification mail go. */
export function resendRetryNote(seconds: number): string {
  return seconds > 0 ? `You can ask for another email in ${seconds} seconds.` : '';
}
