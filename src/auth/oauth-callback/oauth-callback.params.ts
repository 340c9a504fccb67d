/**
 * The query parameters of `/oauth-callback`: the server sends a one-time `code` (or `error`); the
 * spec's token parameters are still taken out of the address bar, but never used: a token in a link
 * would sign whoever opens it into someone else's account.
 */
export const OAUTH_PARAMS = [
  'code',
  'access_token',
  'token_type',
  'user_id',
  'user_name',
  'user_email',
  'user_avatar',
  'refresh_token',
  'error',
] as const;
