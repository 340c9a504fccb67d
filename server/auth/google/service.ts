/**
 * Google sign-in: OpenID Connect's authorization code flow with state and PKCE (S256), through arctic's
 * OAuth2 client (what its Google provider is built on) and the endpoints of the issuer's discovery
 * document, so that tests can run it against a local provider. The ID token is checked with jose against
 * the provider's published keys: signature (RS256), issuer, audience (our client id) and expiry.
 *
 * The state and its PKCE verifier wait in the database (10 minutes, single use); the state is also
 * bound to the browser that asked for it by a cookie (routes.ts), which the callback must bring. Accounts are linked by Google's subject id (`sub`), never by email alone; see README.
 */
import { timingSafeEqual } from 'node:crypto';

import {
  CodeChallengeMethod,
  generateCodeVerifier,
  generateState,
  OAuth2Client,
  OAuth2RequestError,
} from 'arctic';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import { createRemoteJWKSet, jwtVerify } from 'jose';

import type { Queryable } from '../../db';
import { pgErrorCode, transaction, UNIQUE_VIOLATION } from '../../db';
import type { User } from '../../db/schema';
import { oauthStates, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../http/errors';
import { limitNewAccounts } from '../../http/rate-limit';
import { bindingOf } from '../sign-in-code/service';
import { hashToken } from '../tokens';

export const GOOGLE_MESSAGES = {
  notConfigured:
    'Google sign-in is not configured on this server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
  unavailable: 'Google sign-in is unavailable right now. Please try again later.',
  cancelled: 'Google sign-in was cancelled',
  incomplete: 'The answer from Google was incomplete. Please try again.',
  badState: 'This sign-in attempt expired or was already used. Please try again.',
  notConfirmed: 'Google did not confirm the sign-in. Please try again.',
  badIdToken: 'The answer from Google could not be verified. Please try again.',
  noEmail: 'Your Google account did not share an email address',
  unverifiedEmail: 'The email address of your Google account is not verified',
  emailInUse:
    'An account with this email already exists. Sign in with your email and password instead.',
} as const;

/** A failed sign-in whose reason goes back to the app as `/oauth-callback?error=…`. */
export class GoogleSignInError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'GoogleSignInError';
  }
}

const STATE_TTL_MS = 10 * 60_000;
export const GOOGLE_STATE_TTL_SEC = STATE_TTL_MS / 1000;

/** True when the callback's state is the one this browser's cookie holds. */
function sameState(fromQuery: string, fromCookie: string | null): boolean {
  if (fromCookie === null) return false;
  const a = Buffer.from(fromQuery);
  const b = Buffer.from(fromCookie);
  return a.length === b.length && timingSafeEqual(a, b);
}
const DISCOVERY_TTL_MS = 60 * 60_000;
const FETCH_TIMEOUT_MS = 5000;
const SCOPES = ['openid', 'email', 'profile'];
/** Google's ID tokens name their issuer with or without the scheme. */
const GOOGLE_ISSUER = 'https://accounts.google.com';

interface Discovery {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

/** https, or plain http on loopback only (a local provider in development and tests). */
function endpoint(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new Error(`discovery document lacks ${name}`);
  const url = new URL(value);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new Error(`${name} must be https`);
  }
  return url.toString();
}

export interface GoogleClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

function claimsOf(payload: JWTPayload): GoogleClaims {
  const text = (value: unknown, max: number) =>
    typeof value === 'string' && value.trim() && value.length <= max
      ? value.replace(/\0/g, '').trim()
      : null;
  const picture = text(payload.picture, 2048);
  return {
    sub: text(payload.sub, 255)!,
    email: text(payload.email, 254),
    emailVerified: payload.email_verified === true || payload.email_verified === 'true',
    name: text(payload.name, 1000)?.slice(0, 100) ?? null,
    picture: picture?.startsWith('https://') ? picture : null,
  };
}

export function createGoogleSignIn(deps: Deps) {
  const { db, config, logger, now } = deps;
  const google = config.google;
  let discovered: { doc: Discovery; at: number } | null = null;
  let keys: { uri: string; set: ReturnType<typeof createRemoteJWKSet> } | null = null;

  function settings() {
    if (!google) throw new AppError(503, GOOGLE_MESSAGES.notConfigured);
    return google;
  }

  /** The provider's endpoints, from its discovery document (kept for an hour). */
  async function discovery(): Promise<Discovery> {
    const { issuer } = settings();
    if (discovered && Date.now() - discovered.at < DISCOVERY_TTL_MS) return discovered.doc;
    try {
      const response = await fetch(`${issuer}/.well-known/openid-configuration`, {
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        redirect: 'error',
      });
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      const raw = (await response.json()) as Record<string, unknown>;
      if (raw.issuer !== issuer) throw new Error(`discovery names issuer ${String(raw.issuer)}`);
      const doc: Discovery = {
        issuer,
        authorizationEndpoint: endpoint(raw.authorization_endpoint, 'authorization_endpoint'),
        tokenEndpoint: endpoint(raw.token_endpoint, 'token_endpoint'),
        jwksUri: endpoint(raw.jwks_uri, 'jwks_uri'),
      };
      discovered = { doc, at: Date.now() };
      return doc;
    } catch (error) {
      logger.warn('[google] discovery failed:', (error as Error).message);
      throw new AppError(503, GOOGLE_MESSAGES.unavailable);
    }
  }

  function jwks(uri: string) {
    if (keys?.uri !== uri) {
      keys = { uri, set: createRemoteJWKSet(new URL(uri), { timeoutDuration: FETCH_TIMEOUT_MS }) };
    }
    return keys.set;
  }

  function client() {
    const { clientId, clientSecret, redirectUri } = settings();
    return new OAuth2Client(clientId, clientSecret, redirectUri);
  }

  /** Uses up a state: of any number of uses, one gets the verifier, and only within 10 minutes. */
  async function claimState(
    state: string,
  ): Promise<{ codeVerifier: string; clientStateHash: string | null } | null> {
    const [row] = await db
      .delete(oauthStates)
      .where(and(eq(oauthStates.stateHash, hashToken(state)), gt(oauthStates.expiresAt, now())))
      .returning({
        codeVerifier: oauthStates.codeVerifier,
        clientStateHash: oauthStates.clientStateHash,
      });
    return row ?? null;
  }

  /** Writes what this sign-in learnt about the user (a link, a picture); answers the user's id. */
  async function found(tx: Queryable, userId: string, extra: Partial<User>): Promise<string> {
    if (Object.keys(extra).length > 0)
      await tx.update(users).set(extra).where(eq(users.id, userId));
    return userId;
  }

  async function verifyIdToken(idToken: string, doc: Discovery): Promise<GoogleClaims> {
    const { clientId } = settings();
    try {
      const { payload } = await jwtVerify(idToken, jwks(doc.jwksUri), {
        algorithms: ['RS256'],
        issuer: doc.issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : doc.issuer,
        audience: clientId,
        requiredClaims: ['sub', 'iat', 'exp'],
        currentDate: now(),
        clockTolerance: 5,
      });
      // With several audiences, the token must have been issued to us (OpenID Connect Core 3.1.3.7).
      if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== clientId) {
        throw new Error('azp is not our client id');
      }
      const claims = claimsOf(payload);
      if (!claims.sub) throw new Error('no usable sub');
      return claims;
    } catch (error) {
      logger.warn('[google] ID token refused:', (error as Error).message);
      throw new GoogleSignInError(GOOGLE_MESSAGES.badIdToken);
    }
  }

  /**
   * The account for these claims: the one linked to the Google subject; else a local account with the
   * same email, linked only when Google vouches for the address and the account has verified it too;
   * else a new account.
   */
  async function accountFor(
    tx: Queryable,
    claims: GoogleClaims,
    fromAddress: string,
  ): Promise<string> {
    const [linked] = await tx
      .select()
      .from(users)
      .where(eq(users.googleSub, claims.sub))
      .for('update')
      .limit(1);
    if (linked) {
      return found(tx, linked.id, { avatarUrl: linked.avatarUrl ?? claims.picture });
    }
    if (!claims.email) throw new GoogleSignInError(GOOGLE_MESSAGES.noEmail);
    const [sameEmail] = await tx
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${claims.email})`)
      .for('update')
      .limit(1);
    if (sameEmail) {
      if (!claims.emailVerified || !sameEmail.emailVerifiedAt || sameEmail.googleSub) {
        throw new GoogleSignInError(GOOGLE_MESSAGES.emailInUse);
      }
      return found(tx, sameEmail.id, {
        googleSub: claims.sub,
        avatarUrl: sameEmail.avatarUrl ?? claims.picture,
        updatedAt: now(),
      });
    }
    if (!claims.emailVerified) throw new GoogleSignInError(GOOGLE_MESSAGES.unverifiedEmail);
    const at = now();
    // A browser navigation: the limit's words go back to the app's page, not a JSON 429.
    await limitNewAccounts(
      tx,
      fromAddress,
      config.limits.newAccountsPerAddress,
      at,
      (detail) => new GoogleSignInError(detail),
    );
    const [created] = await tx
      .insert(users)
      .values({
        email: claims.email,
        displayName: claims.name ?? claims.email.split('@')[0]!.slice(0, 100),
        avatarUrl: claims.picture,
        isGoogle: true,
        googleSub: claims.sub,
        emailVerifiedAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: users.id });
    return created!.id;
  }

  return {
    /** Where to send the browser: Google's consent page, with a fresh state and PKCE challenge. */
    async authorizationUrl(clientState: string): Promise<URL> {
      const doc = await discovery();
      const state = generateState();
      const verifier = generateCodeVerifier();
      const at = now();
      await db.delete(oauthStates).where(lt(oauthStates.expiresAt, at));
      await db.insert(oauthStates).values({
        stateHash: hashToken(state),
        codeVerifier: verifier,
        clientStateHash: bindingOf(clientState),
        createdAt: at,
        expiresAt: new Date(at.getTime() + STATE_TTL_MS),
      });
      const url = client().createAuthorizationURLWithPKCE(
        doc.authorizationEndpoint,
        state,
        CodeChallengeMethod.S256,
        verifier,
        SCOPES,
      );
      url.searchParams.set('prompt', 'select_account');
      return url;
    },

    /** Finishes the sign-in Google sent the browser back from; a GoogleSignInError says why not. */
    async complete(
      query: {
        code?: string | undefined;
        state?: string | undefined;
        error?: string | undefined;
      },
      /** The state in the browser's cookie (set at login); null when it brought none. */
      browserState: string | null,
      /** The client's address: new accounts are limited per address. */
      fromAddress: string,
    ): Promise<{ userId: string; bindingHash: string }> {
      settings();
      if (query.error) {
        if (query.state && sameState(query.state, browserState)) await claimState(query.state);
        throw new GoogleSignInError(
          query.error === 'access_denied'
            ? GOOGLE_MESSAGES.cancelled
            : GOOGLE_MESSAGES.notConfirmed,
        );
      }
      if (!query.code || !query.state) throw new GoogleSignInError(GOOGLE_MESSAGES.incomplete);
      // Another browser's state (login CSRF) is refused before it is used up, so the real owner may
      // still finish with it.
      if (!sameState(query.state, browserState)) {
        logger.warn('[google] the callback state is not the one this browser was given');
        throw new GoogleSignInError(GOOGLE_MESSAGES.badState);
      }
      const claimed = await claimState(query.state);
      if (!claimed?.clientStateHash) throw new GoogleSignInError(GOOGLE_MESSAGES.badState);
      const { codeVerifier: verifier, clientStateHash: bindingHash } = claimed;
      let doc: Discovery;
      try {
        doc = await discovery();
      } catch {
        throw new GoogleSignInError(GOOGLE_MESSAGES.unavailable);
      }
      let idToken: string;
      try {
        const tokens = await client().validateAuthorizationCode(
          doc.tokenEndpoint,
          query.code,
          verifier,
        );
        idToken = tokens.idToken();
      } catch (error) {
        const why = error instanceof OAuth2RequestError ? error.code : (error as Error).message;
        logger.warn('[google] code exchange failed:', why);
        throw new GoogleSignInError(GOOGLE_MESSAGES.notConfirmed);
      }
      const claims = await verifyIdToken(idToken, doc);
      for (let attempt = 1; ; attempt++) {
        try {
          const userId = await transaction(db, (tx) => accountFor(tx, claims, fromAddress));
          return { userId, bindingHash };
        } catch (error) {
          // Two first sign-ins of one person at once: the loser finds the winner's account.
          if (attempt < 2 && pgErrorCode(error) === UNIQUE_VIOLATION) continue;
          throw error;
        }
      }
    },
  };
}

/**
 * `/oauth-callback` in the app with a one-time `code` (exchanged by the page, with the browser's
 * one-time value, at `POST /auth/sign-in-code`), or with `error=<a sentence for the user>`. Never a
 * token: a link that signs whoever opens it into an account must not exist.
 */
export function callbackUrl(
  publicUrl: string,
  outcome: { code: string } | { error: string },
): string {
  const url = new URL(`${publicUrl}/oauth-callback`);
  if ('error' in outcome) url.searchParams.set('error', outcome.error);
  else url.searchParams.set('code', outcome.code);
  return url.toString();
}
