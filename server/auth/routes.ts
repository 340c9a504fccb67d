/**
 * `/api/v1/auth`: the HTTP side of signing in (API.md's auth table) — paths, validation, status codes.
 *
 * Refresh tokens travel in JSON, never in cookies (API.md: no cookies). Every sign-in answer (login,
 * verify-email) carries `refresh_token` beside `access_token`. `POST /refresh` takes only
 * `{"refresh_token": "…"}`: the token is used up and a new pair comes back (rotation); presenting a used
 * refresh token again signs out its whole session. An access token never renews itself, so a stolen
 * bearer token dies within 30 minutes. `POST /logout` revokes the session and its refresh chain.
 * A session ends at the latest 30 days after its sign-in.
 */
import type { z } from '@hono/zod-openapi';
import { createRoute } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';

import type { Deps } from '../deps';
import type { AuthEnv } from '../http/auth';
import { AppError, unauthorized, validationItems } from '../http/errors';
import { BEARER, body, createRouter, errorResponses, json, PUBLIC } from '../http/openapi';
import { clientAddress } from '../http/security';
import { accountRoutes } from './account/routes';
import type { AccountParts } from './account/service';
import { avatarRoutes } from './avatars/routes';
import type { CredentialService } from './credentials';
import { googleRoutes } from './google/routes';
import { AUTH_MESSAGES } from './messages';
import { portalRoutes } from './portal/routes';
import type { ClassJoiner } from './portal/service';
import {
  AuthResponse,
  ChangePasswordBody,
  EmailBody,
  LoginBody,
  LoginForm,
  MessageResponse,
  OnboardingBody,
  ProfileBody,
  ProvidersResponse,
  publicUser,
  RefreshBody,
  RefreshResponse,
  RegisterBody,
  RegisterResponse,
  ResendResponse,
  ResetConfirmBody,
  signedIn,
  TokenBody,
  UserResponse,
} from './schemas';
import type { ProfileService } from './service';
import type { SessionService } from './sessions';
import { signInCodeRoutes } from './sign-in-code/routes';
import { createSignInCodes } from './sign-in-code/service';
import { walletRoutes } from './wallet/routes';

/** `GET /providers`: which sign-in ways this server offers, so the app never links to a 503. */
function providersRoute(deps: Deps) {
  const app = createRouter<AuthEnv>();
  app.openapi(
    createRoute({
      method: 'get',
      path: '/providers',
      summary: 'The sign-in ways this server offers',
      responses: {
        200: json(ProvidersResponse, 'Email and wallet always; Google when configured'),
      },
    }),
    (c) =>
      c.json(
        { email: true as const, google: deps.config.google !== null, wallet: true as const },
        200,
      ),
  );

  return app;
}

/** Said on the routes that cost a hash or a mail. */
const LIMITED =
  'Limited per client address and per email address (429 with Retry-After), before any lookup.';

const mediaType = (c: Context) =>
  (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();

/** The auth domain's services, each built by server/app.ts. */
export interface AuthServices {
  sessions: SessionService;
  credentials: CredentialService;
  profile: ProfileService;
}

/**
 * `auth` is the bearer-token guard and `services` the auth domain's services, built by server/app.ts;
 * `accountParts` the other domains' rows of a user, for the account export; `classes` the classes
 * domain's port, which a portal's assertion places its user in a class through.
 * `apiPrefix` is where the app mounts the API (`/api/v1`): avatar URLs are built under it.
 */
export function authRoutes(
  deps: Deps,
  auth: MiddlewareHandler<AuthEnv>,
  services: AuthServices,
  accountParts: AccountParts,
  classes: ClassJoiner,
  apiPrefix = '/api/v1',
) {
  const { sessions, credentials, profile } = services;
  const app = createRouter<AuthEnv>();
  const address = (c: Context) => clientAddress(c, deps.config.trustProxy);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/register',
      security: PUBLIC,
      summary: 'Create an account and send a verification email',
      description: LIMITED,
      request: { body: body(RegisterBody) },
      responses: {
        201: json(RegisterResponse, 'Registered; a verification email is on its way'),
        ...errorResponses(409, 415, 422, 429),
      },
    }),
    async (c) => {
      const input = c.req.valid('json');
      await credentials.limitAccountMail('register', input.email, address(c));
      const user = await credentials.register(input);
      return c.json({ message: AUTH_MESSAGES.registered, user: publicUser(user) }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/login',
      security: PUBLIC,
      summary: 'Sign in with email and password',
      description:
        'JSON `{email, password}`, or OAuth2 password form fields `username` (the email) and `password`.',
      request: {
        body: {
          required: false,
          content: {
            'application/json': { schema: LoginBody },
            'application/x-www-form-urlencoded': { schema: LoginForm },
          },
        },
      },
      responses: {
        200: json(AuthResponse, 'Signed in'),
        ...errorResponses(401, 403, 415, 422, 429),
      },
    }),
    async (c) => {
      let email: string;
      let password: string;
      const type = mediaType(c);
      if (type === 'application/x-www-form-urlencoded' || type === 'multipart/form-data') {
        const form = c.req.valid('form') as z.infer<typeof LoginForm>;
        email = form.username;
        password = form.password;
      } else if (type) {
        ({ email, password } = c.req.valid('json') as z.infer<typeof LoginBody>);
      } else {
        // No body at all: say which fields are missing, as for an empty JSON object.
        const result = LoginBody.safeParse({});
        throw new AppError(422, validationItems(result.error?.issues ?? [], 'json', {}));
      }
      const result = await credentials.login(
        email,
        password,
        clientAddress(c, deps.config.trustProxy),
      );
      return c.json(signedIn(result), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/me',
      summary: 'The signed-in user',
      security: BEARER,
      middleware: [auth] as const,
      responses: { 200: json(UserResponse, 'The user'), ...errorResponses(401) },
    }),
    (c) => c.json({ user: publicUser(c.var.auth.user) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/profile',
      summary: 'Update display name, bio and interests',
      security: BEARER,
      middleware: [auth] as const,
      request: { body: body(ProfileBody) },
      responses: { 200: json(UserResponse, 'The updated user'), ...errorResponses(401, 415, 422) },
    }),
    async (c) => {
      const user = await profile.updateProfile(c.var.auth.user.id, c.req.valid('json'));
      return c.json({ user: publicUser(user) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/onboarding/complete',
      summary: 'Mark onboarding complete (awards the onboarding points once)',
      description:
        "Keeps the subjects picked at onboarding as the user's `interests`; the body may be left out.",
      security: BEARER,
      middleware: [auth] as const,
      request: { body: { ...body(OnboardingBody), required: false } },
      responses: { 200: json(UserResponse, 'The updated user'), ...errorResponses(401, 415, 422) },
    }),
    async (c) => {
      const { interests } = (c.req.valid('json') as { interests?: string[] } | undefined) ?? {};
      const user = await profile.completeOnboarding(c.var.auth.user.id, interests);
      return c.json({ user: publicUser(user) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/verify-email',
      security: PUBLIC,
      summary: 'Confirm an email address with the token from the mail, and sign in',
      request: { body: body(TokenBody) },
      responses: {
        200: json(AuthResponse, 'Verified and signed in'),
        ...errorResponses(400, 409, 415, 422),
      },
    }),
    async (c) => c.json(signedIn(await credentials.verifyEmail(c.req.valid('json').token)), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/resend-verification',
      security: PUBLIC,
      summary: 'Send the verification email again',
      description:
        'Answers the same whether or not the address has an account; `retry_after` says in how many ' +
        `seconds another mail can be asked for (a request inside that time sends nothing). ${LIMITED}`,
      request: { body: body(EmailBody) },
      responses: { 200: json(ResendResponse, 'Accepted'), ...errorResponses(415, 422, 429) },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      await credentials.limitAccountMail('resend', email, address(c));
      const { retryAfterSec, sent } = await credentials.resendVerification(email);
      const message = sent ? AUTH_MESSAGES.resendSent : AUTH_MESSAGES.resendCooldown(retryAfterSec);
      return c.json({ message, retry_after: retryAfterSec }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/password-reset',
      security: PUBLIC,
      summary: 'Send a password reset email',
      description: `Answers the same whether or not the address has an account. ${LIMITED}`,
      request: { body: body(EmailBody) },
      responses: { 200: json(MessageResponse, 'Accepted'), ...errorResponses(415, 422, 429) },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      await credentials.limitAccountMail('reset', email, address(c));
      await credentials.requestPasswordReset(email);
      return c.json({ message: AUTH_MESSAGES.resetSent }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/password-reset/confirm',
      security: PUBLIC,
      summary: 'Set a new password with the token from the reset email',
      description: 'The token works once, for 1 hour; every session of the user is signed out.',
      request: { body: body(ResetConfirmBody) },
      responses: { 200: json(MessageResponse, 'Password reset'), ...errorResponses(400, 415, 422) },
    }),
    async (c) => {
      const { token, new_password } = c.req.valid('json');
      await credentials.confirmPasswordReset(token, new_password);
      return c.json({ message: AUTH_MESSAGES.resetDone }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/change-password',
      summary: 'Change the password (signs out every other session)',
      security: BEARER,
      middleware: [auth] as const,
      request: { body: body(ChangePasswordBody) },
      responses: {
        200: json(MessageResponse, 'Password changed'),
        ...errorResponses(400, 401, 403, 415, 422),
      },
    }),
    async (c) => {
      const { current_password, new_password } = c.req.valid('json');
      await credentials.changePassword(c.var.auth, current_password, new_password);
      return c.json({ message: AUTH_MESSAGES.passwordChanged }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/refresh',
      summary: 'A new access token',
      description:
        'Takes only `{refresh_token}`: rotation (a new refresh token comes back; reusing one signs its ' +
        'session out). An access token alone is refused with 401.',
      request: {
        body: { required: false, content: { 'application/json': { schema: RefreshBody } } },
      },
      responses: {
        200: json(RefreshResponse, 'A new access token'),
        ...errorResponses(401, 415, 422),
      },
    }),
    async (c) => {
      const { refresh_token } = c.req.valid('json');
      if (refresh_token === undefined) {
        throw unauthorized(AUTH_MESSAGES.notAuthenticated);
      }
      const result = await sessions.refreshWithToken(refresh_token);
      const { access_token, token_type, expires_in } = signedIn(result);
      return c.json(
        { access_token, token_type, expires_in, refresh_token: result.refreshToken },
        200,
      );
    },
  );

  app.route('/', providersRoute(deps));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/logout',
      summary: 'Sign out: revoke this session and its refresh chain',
      description:
        'Signs out the session of `{refresh_token}` when sent (it works after the access token has ' +
        'expired), else that of the bearer access token. Other sessions of the user stay signed in.',
      security: [{}, ...BEARER],
      request: {
        body: { required: false, content: { 'application/json': { schema: RefreshBody } } },
      },
      responses: { 200: json(MessageResponse, 'Signed out'), ...errorResponses(401, 415, 422) },
    }),
    async (c) => {
      const { refresh_token } = c.req.valid('json');
      if (refresh_token !== undefined) await sessions.logoutWithRefreshToken(refresh_token);
      else
        await sessions.logout(
          (await sessions.authenticate(c.req.header('authorization'))).sessionId,
        );
      return c.json({ message: AUTH_MESSAGES.signedOut }, 200);
    },
  );

  app.route('/', avatarRoutes(deps, apiPrefix, auth));
  // Redirect sign-ins hand over a one-time code, never a token (sign-in-code/).
  const codes = createSignInCodes(deps, (q, userId) => sessions.startSession(q, userId));
  app.route('/', signInCodeRoutes(codes));
  app.route('/', googleRoutes(deps, codes));
  app.route('/', walletRoutes(deps, sessions));
  app.route('/', portalRoutes(deps, sessions, classes));
  app.route('/', accountRoutes(deps, auth, accountParts));

  return app;
}
