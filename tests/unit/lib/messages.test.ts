import { describe, expect, it } from 'vitest';

import {
  AUTH_MESSAGES,
  CHAT_MESSAGES,
  conversionOverBalance,
  GOAL_MESSAGES,
  goalCreated,
  GUEST_MESSAGES,
  OAUTH_MESSAGES,
  oauthError,
  OTHER_MESSAGES,
  PROFILE_MESSAGES,
  RESET_VERIFY_MESSAGES,
  SIGN_IN_MESSAGES,
  SIGN_UP_MESSAGES,
  startedConversation,
  USER_REJECTED_CODE,
  VALIDATION_MESSAGES,
  WALLET_MESSAGES,
  welcomeBack,
  wrongWalletAddress,
} from '../../../src/lib/messages';

// Each expected string is copied from the spec by hand, so a typo on either side shows here.
describe('messages are the spec’s, character for character', () => {
  it('section 5, validation', () => {
    expect(VALIDATION_MESSAGES).toMatchObject({
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
    });
  });

  it('sign-in, sign-up and guest toasts', () => {
    expect(SIGN_IN_MESSAGES).toEqual({
      invalidCredentials: 'Invalid email or password. Please check your credentials.',
      notVerified:
        'Your account has not been email verified. Please check your email and verify to continue.',
      invalidEmail: 'Please enter a valid email address.',
      passwordTooShort: 'Password must be at least 8 characters long.',
      signedIn: 'Signed in successfully!',
      signedOut: 'Signed out successfully',
    });
    expect(SIGN_UP_MESSAGES).toEqual({
      emailTaken: 'An account with this email already exists. Please sign in instead.',
      fullNameRequired: 'Please enter your full name.',
      acceptTerms: 'Please accept the terms and privacy policy.',
    });
    expect(GUEST_MESSAGES.signInRequired).toBe('Please sign in to access all features');
  });

  it('Google / OAuth', () => {
    expect(OAUTH_MESSAGES).toEqual({
      googleFailed: 'Failed to sign in with Google. Please try again.',
      googleIncomplete: 'Failed to complete Google sign-in',
      noAccessToken: 'Authentication failed: No access token received',
      googleSignedIn: 'Successfully signed in with Google!',
    });
    expect(oauthError('access_denied')).toBe('OAuth error: access_denied');
  });

  it('wallet', () => {
    expect(WALLET_MESSAGES).toEqual({
      metamaskMissing: 'MetaMask is not installed. Please install MetaMask extension.',
      connectionRejected: 'User rejected the connection request.',
      signatureRejected: 'User rejected the signature request.',
      noAccounts: 'No accounts found...',
    });
    expect(USER_REJECTED_CODE).toBe(4001);
    expect(wrongWalletAddress('0xAbC')).toBe(
      'Please connect to your registered wallet address: 0xAbC',
    );
  });

  it('password and profile', () => {
    expect(PROFILE_MESSAGES).toEqual({
      currentPasswordIncorrect: 'Current password is incorrect',
      weakNewPassword:
        'New password does not meet security requirements. Please choose a stronger password.',
      authFailed: 'Authentication failed. Please try logging in again.',
      updateFailed: 'Failed to update profile. Please try again.',
      avatarUploadFailed: 'Failed to upload profile picture',
    });
  });

  it('reset and verify', () => {
    expect(RESET_VERIFY_MESSAGES).toEqual({
      resetEmailFailed: 'Failed to send reset email. Please try again.',
      resetFailed: 'Failed to reset password.',
      resendFailed: 'Failed to resend verification email',
      emailNotFound: 'Email address not found',
      resetEmailSent: 'Password reset email sent!',
      passwordReset: 'Password reset successfully!',
      verificationResent: 'Verification email resent successfully!',
    });
  });

  it('chat', () => {
    expect(CHAT_MESSAGES).toMatchObject({
      tooLong: 'Message can be up to 4000 characters only.',
      sendFailed: 'Failed to send message. Please try again.',
      sessionNotFound: 'Chat session not found, starting new conversation',
      archiveAllFailed: 'Failed to archive all chats',
      deleteAllFailed: 'Failed to delete all chats',
      unarchiveFailed: 'Failed to unarchive chat',
      deleteFailed: 'Failed to delete chat',
      deleteConversationFailed: 'Failed to delete conversation. Please try again.',
      renameFailed: 'Change name failed!',
    });
    expect(welcomeBack('Fractions')).toBe(
      'Welcome back to "Fractions"! How can I help you continue this discussion?',
    );
    expect(startedConversation('Fractions')).toBe('Started conversation: Fractions');
  });

  it('goals and other', () => {
    // The spec's words, exactly; the goals board adds wordings of its own beside them.
    expect(GOAL_MESSAGES).toMatchObject({
      updateFailed: 'Failed to update goal',
      fetchFailed: 'Failed to fetch goals',
      deleted: 'Goal deleted successfully',
      updated: 'Goal updated successfully!',
    });
    expect(OTHER_MESSAGES.transferFailed).toBe('Failed to submit Ayah transfer.');
  });
});

describe('messages the spec only paraphrases', () => {
  it('names subject, type and target per week when a goal is created', () => {
    expect(goalCreated('math', 'problems_solved', 10)).toBe(
      'Math goal created: 10 problems per week!',
    );
    expect(goalCreated('english', 'study_time', 45)).toBe(
      'English goal created: 45 minutes per week!',
    );
  });

  it('tells the conversion modal the balance', () => {
    expect(conversionOverBalance(250)).toBe('You have only 250 points');
  });

  it('words the auth feature’s own messages, none of them the spec’s', () => {
    expect(AUTH_MESSAGES).toEqual({
      walletConnecting: 'Connecting to MetaMask...',
      walletConnectTimeout: 'MetaMask did not answer in time. Please try again.',
      walletSignTimeout: 'The signature request timed out. Please try again.',
      walletSignInFailed: 'Wallet sign-in failed. Please try again.',
      verifyLinkFailed: 'This verification link is invalid or has expired.',
      resetLinkMissing:
        'This reset link is incomplete. Please request a new one from the sign-in page.',
      onboardingFailed: 'Could not finish setting up. Please try again.',
      somethingWentWrong: 'Something went wrong. Please try again.',
    });
  });

  it('words the chat successes', () => {
    expect(CHAT_MESSAGES.allArchived).toBe('All chats archived successfully');
    expect(CHAT_MESSAGES.renamed).toBe('Chat renamed successfully');
  });
});
