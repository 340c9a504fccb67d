/**
 * Every business constant and limit of spec section 9, once. Rules that use them live beside them in
 * `src/lib/`; the server enforces its own copy of each rule, and these are for instant feedback.
 */

/** Toasts: top-right, at most 20, error and plain 4000 ms, success 2000 ms, loading until dismissed. */
export const TOAST = {
  position: 'top-right',
  limit: 20,
  blankMs: 4000,
  errorMs: 4000,
  successMs: 2000,
  /** The MetaMask loading toast. */
  metamaskLoadingMs: 5000,
} as const;

/** Chat messages: non-empty after trimming, at most 4000 characters. */
export const CHAT = {
  maxMessageLength: 4000,
  /** Fallback (non-streamed) replies are revealed 3 characters every 50 ms. */
  fakeStreamChars: 3,
  fakeStreamIntervalMs: 50,
  searchDebounceMs: 300,
  searchLimit: 20,
  searchHistory: 10,
  recentChatsInSearch: 10,
  archivedPageSize: 50,
  /** A session's title is made from the first user message, at most this long. */
  titleMaxLength: 60,
  renameMaxLength: 100,
} as const;

/** Auth: the local-storage key of the access token, and the UI timings around sign-in. */
export const AUTH = {
  tokenStorageKey: 'authToken',
  guestUserId: 'guest-user',
  passwordMinLength: 8,
  verifyBannerMs: 3000,
  oauthErrorRedirectMs: 3000,
  taglineTypingMs: 80,
} as const;

/** Wallet sign-in timeouts. */
export const WALLET = {
  connectTimeoutMs: 30_000,
  signTimeoutMs: 60_000,
} as const;

/** Avatar uploads: an image under 5 MB. */
export const AVATAR = {
  maxBytes: 5 * 1024 * 1024,
} as const;

/** Points and the reward token (DECISIONS.md: 10 points = 1 token). */
export const POINTS = {
  pointsPerToken: 10,
  minConversion: 100,
  conversionStep: 10,
  tokenName: 'AYAH',
  guestStart: 100,
  guestWelcomeBonus: 25,
  guestFirstMeal: 10,
  guestRewardTokens: 5,
  onboardingAward: 50,
  tenMessagesAward: 50,
  goalCompletedAward: 50,
} as const;

/** Weekly goals. */
export const GOALS = {
  subjects: ['math', 'science', 'history', 'english'],
  goalTypes: ['problems_solved', 'study_time', 'topics_learned'],
  minTarget: 1,
  maxTarget: 999,
  maxSubjects: 3,
  /** Goals with more than this progress (percent) cannot be edited. */
  editLockPercent: 50,
  maxProgressPercent: 100,
  milestones: [25, 50, 75, 100],
  recentActivityLimit: 5,
  /** A logged topic's length (the server's limit). */
  topicMaxLength: 200,
  /** Minutes a single progress entry may add (one day). */
  maxMinutesPerEntry: 1440,
  progressPageSize: 4,
  defaultTarget: { problems_solved: 10, study_time: 30, topics_learned: 3 },
  recommended: {
    problems_solved: { min: 10, max: 25 },
    study_time: { min: 30, max: 60 },
    topics_learned: { min: 3, max: 7 },
  },
  quickPicks: {
    problems_solved: [10, 15, 20, 25],
    study_time: [30, 45, 60, 90],
    topics_learned: [3, 5, 7, 10],
  },
} as const;

export type Subject = (typeof GOALS.subjects)[number];
export type GoalType = (typeof GOALS.goalTypes)[number];
