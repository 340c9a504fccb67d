/**
 * LTI 1.3 launches (1EdTech LTI Core 1.3, Security Framework 1.0): the OIDC third-party-initiated
 * login, the launch's id_token checked to the letter, the student found or made by
 * `(platform, sub)` and handed a session of their own, the course and role recorded, the deep-linking
 * picker's answer signed, and the ports other domains use (the roster, goal-progress grades).
 */
import { createHash, randomBytes } from 'node:crypto';

import { and, eq, isNull, lt } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';

import type { LimitSettings } from '../config';
import type { Db, Queryable } from '../db';
import { transaction } from '../db';
import { oneTimeCodes } from '../db/one-time-codes';
import {
  ltiContexts,
  ltiGradeLinks,
  ltiHandoffs,
  ltiLoginStates,
  ltiMemberships,
  ltiUsers,
  users,
} from '../db/schema';
import type { Logger } from '../http/errors';
import { limitNewAccounts } from '../http/rate-limit';
import type { GoalsReader } from './ags';
import { createGrades } from './ags';
import type { LtiConfig, LtiPlatform } from './config';
import { signAsTool } from './keys';
import { createRoster } from './nrps';
import { createPlatformRegistry } from './platforms';
import type { LtiRole } from './schemas';
import {
  AgsClaim,
  CLAIMS,
  ContextClaim,
  DeepLinkingSettings,
  MESSAGE_TYPES,
  NrpsClaim,
  ResourceLinkClaim,
  roleOf,
  SCOPES,
} from './schemas';
import { createTokenSource } from './token';

/** The classes domain's door (issue 24): the course a launch came from, joined as the claims say. */
export interface ClassMembershipPort {
  joinClass(input: {
    userId: string;
    source: 'lti' | 'portal';
    externalKey: string;
    name: string;
    role: LtiRole;
  }): Promise<{ classId: string }>;
}

/** The auth domain's door: a session for a user whose identity the platform proved, as JSON. */
export interface SessionIssuer {
  startSession(q: Queryable, userId: string): Promise<Record<string, unknown>>;
}

export interface LtiDeps {
  db: Db;
  config: {
    publicUrl: string;
    lti: LtiConfig;
    limits: Pick<LimitSettings, 'newAccountsPerAddress'>;
  };
  logger: Logger;
  now: () => Date;
  sessions: SessionIssuer;
  goals?: GoalsReader | null;
  classes?: ClassMembershipPort | null;
}

export const LTI_PREFIX = '/api/v1/lti';
export const CLOCK_SKEW_SEC = 60;
const LOGIN_TTL_MS = 10 * 60_000;
const HANDOFF_TTL_MS = 2 * 60_000;
const DEEP_LINK_TTL_MS = 30 * 60_000;
export const STATE_COOKIE_PREFIX = 'ayah_lti_';

export const LTI_MESSAGES = {
  unknownPlatform: 'This course platform is not registered with Ayah.',
  loginFields: 'The platform started the sign-in without "iss", "login_hint" or "target_link_uri".',
  target: 'The link points outside Ayah.',
  noToken: 'The launch carries no id_token.',
  malformed: 'The launch is not a well-formed LTI message.',
  algorithm: 'The launch must be signed with RS256.',
  signature: "The launch is not signed by one of the platform's keys.",
  keys: "The platform's signing keys could not be fetched.",
  audience: 'The launch is meant for another tool (its audience is not this client id).',
  azp: 'The launch names several audiences but no "azp" among them.',
  expired: 'The launch has expired. Open Ayah again from your course.',
  notYet: 'The launch is not valid yet (check the clocks).',
  claims: (claim: string) => `The launch has no valid "${claim}" claim.`,
  deployment: 'This deployment of Ayah is not registered.',
  version: 'Only LTI 1.3.0 launches are accepted.',
  messageType: 'Ayah does not accept this kind of LTI message.',
  state: 'The launch does not match a sign-in started here (unknown or expired state).',
  replayed: 'This launch has already been used. Open Ayah again from your course.',
  nonce: 'The launch does not match its sign-in (other nonce).',
  browser: 'The launch did not start in this browser (its sign-in cookie is missing).',
  handoff: 'This sign-in link has expired or was already used. Open Ayah again from your course.',
  proof: "The course page's stored sign-in details do not match this launch.",
  deepLinkRole: 'Only teachers and administrators can add Ayah to a course.',
  deepLinkTypes: 'The platform does not accept LTI resource links here.',
  deepLinkChoice: 'Choose the tutor chat or the weekly goals.',
} as const;

/** A refusal: a plain page with this reason, this status, and the platform's frame if known. */
export class LtiRefusal extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 403 | 429 = 400,
    readonly platform: LtiPlatform | null = null,
  ) {
    super(message);
  }
}

const token = () => randomBytes(24).toString('base64url');
const hash = (value: string) => createHash('sha256').update(value).digest('base64url');

const shortText = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;

function displayName(payload: JWTPayload): string {
  const given = shortText(payload.given_name, 100);
  const family = shortText(payload.family_name, 100);
  const name =
    shortText(payload.name, 200) ?? (given && family ? `${given} ${family}` : given) ?? 'Student';
  return name.replace(/\0/g, '').slice(0, 100);
}

/** A claim read with its schema; absent → undefined; present but wrong → the launch is refused. */
function claim<T>(
  payload: JWTPayload,
  name: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
): T | undefined {
  const value = payload[name];
  if (value === undefined) return undefined;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new LtiRefusal(LTI_MESSAGES.claims(name.split('/').pop()!));
  return parsed.data;
}

function refusalOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return LTI_MESSAGES.expired;
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return LTI_MESSAGES.audience;
    if (error.claim === 'iat' || error.claim === 'nbf') return LTI_MESSAGES.notYet;
    return LTI_MESSAGES.claims(error.claim);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return LTI_MESSAGES.algorithm;
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  )
    return LTI_MESSAGES.signature;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return LTI_MESSAGES.keys;
  if (error instanceof errors.JOSEError) return LTI_MESSAGES.malformed;
  return LTI_MESSAGES.keys;
}

/** What the launched page is told to do next. */
export interface LaunchResult {
  platform: LtiPlatform;
  kind: 'session' | 'deep_link';
  code: string;
  /** session: where the page goes once signed in. */
  next: string;
  /** session: platform storage to read state and nonce back from. */
  storage: { target: string; origin: string; state: string; nonce: string } | null;
}

/** A login's answer: straight to the platform (state in a cookie), or a page using platform storage. */
export type LoginResult =
  | { kind: 'redirect'; url: string; state: string; cookie: string; platform: LtiPlatform }
  | {
      kind: 'storage';
      url: string;
      state: string;
      nonce: string;
      target: string;
      origin: string;
      platform: LtiPlatform;
    };

class IdentityRace extends Error {}

export function createLtiService(deps: LtiDeps) {
  const { db, config, now, logger } = deps;
  const { lti, publicUrl } = config;
  const platforms = createPlatformRegistry(db, lti.platforms);
  const tokens = createTokenSource(lti.keys, now);
  const grades = createGrades({
    db,
    now,
    logger,
    platforms,
    tokens,
    goals: deps.goals ?? null,
  });
  const roster = createRoster(db, platforms, tokens);
  const launchUrl = `${publicUrl}${LTI_PREFIX}/launch`;
  const ownOrigin = new URL(publicUrl).origin;
  const handoffs = oneTimeCodes(ltiHandoffs, now);

  async function prune() {
    const at = now();
    await db.delete(ltiLoginStates).where(lt(ltiLoginStates.expiresAt, at));
  }

  /** A one-time code carrying `payload` (server/db/one-time-codes.ts), taken back by `takeHandoff`. */
  async function handoff(kind: string, payload: Record<string, unknown>, ttlMs: number) {
    return handoffs.issue(db, { kind, payload }, ttlMs);
  }

  async function takeHandoff(code: string, kind: string) {
    const row = await handoffs.take(db, code, eq(ltiHandoffs.kind, kind));
    return row?.payload ?? null;
  }

  /** The user of `(platform, sub)`, made at their first launch with the name the claims give. */
  async function userOf(
    tx: Queryable,
    platform: LtiPlatform,
    sub: string,
    name: string,
    client: string,
  ) {
    const where = and(eq(ltiUsers.platformId, platform.id), eq(ltiUsers.subject, sub));
    const [known] = await tx.select({ userId: ltiUsers.userId }).from(ltiUsers).where(where);
    if (known) {
      await tx.update(users).set({ displayName: name }).where(eq(users.id, known.userId));
      return known.userId;
    }
    const at = now();
    await limitNewAccounts(
      tx,
      client,
      config.limits.newAccountsPerAddress,
      at,
      (detail) => new LtiRefusal(detail, 429, platform),
    );
    const [user] = await tx
      .insert(users)
      .values({
        // Never the platform's address: the identity is (platform, sub).
        email: null,
        displayName: name,
        emailVerifiedAt: at,
        // The course is the student's setting: a launch opens the view, not the onboarding steps.
        onboardingCompleted: true,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: users.id });
    const [linked] = await tx
      .insert(ltiUsers)
      .values({ platformId: platform.id, subject: sub, userId: user!.id, createdAt: at })
      .onConflictDoNothing()
      .returning({ userId: ltiUsers.userId });
    if (!linked) throw new IdentityRace();
    return linked.userId;
  }

  async function findOrCreateUser(
    platform: LtiPlatform,
    sub: string,
    name: string,
    client: string,
  ) {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transaction(db, (tx) => userOf(tx, platform, sub, name, client));
      } catch (error) {
        if (error instanceof IdentityRace && attempt < 3) continue;
        throw error;
      }
    }
  }

  /** The app path a resource link opens: `custom.ayah_view`, else the target link's own path. */
  function viewPath(payload: JWTPayload): string {
    const custom = payload[CLAIMS.custom] as Record<string, unknown> | undefined;
    const view = typeof custom?.ayah_view === 'string' ? custom.ayah_view : null;
    if (view === 'chat') return '/assistant';
    if (view === 'goals') return '/goal';
    const target = payload[CLAIMS.targetLinkUri];
    if (typeof target === 'string') {
      try {
        const url = new URL(target);
        if (
          url.origin === ownOrigin &&
          /^\/(assistant|goal|wallet|settings)\/?$/.test(url.pathname)
        )
          return url.pathname.replace(/\/$/, '');
      } catch {
        // not a URL: the chat
      }
    }
    return '/assistant';
  }

  async function verify(idToken: string): Promise<{ payload: JWTPayload; platform: LtiPlatform }> {
    let alg: string | undefined;
    let unverified: JWTPayload;
    try {
      alg = decodeProtectedHeader(idToken).alg;
      unverified = decodeJwt(idToken);
    } catch {
      throw new LtiRefusal(LTI_MESSAGES.malformed);
    }
    const iss = typeof unverified.iss === 'string' ? unverified.iss : null;
    const aud = unverified.aud;
    let clientId: string | null = null;
    if (typeof aud === 'string') clientId = aud;
    else if (Array.isArray(aud)) {
      if (typeof unverified.azp !== 'string' || !aud.includes(unverified.azp))
        throw new LtiRefusal(LTI_MESSAGES.azp);
      clientId = unverified.azp;
    }
    if (!iss || !clientId) throw new LtiRefusal(LTI_MESSAGES.malformed);
    const platform = await platforms.find(iss, clientId);
    if (!platform) throw new LtiRefusal(LTI_MESSAGES.unknownPlatform, 401);
    if (alg !== 'RS256') throw new LtiRefusal(LTI_MESSAGES.algorithm, 401, platform);
    try {
      const { payload } = await jwtVerify(idToken, platforms.keysOf(platform), {
        issuer: platform.issuer,
        audience: platform.clientId,
        algorithms: ['RS256'],
        currentDate: now(),
        clockTolerance: CLOCK_SKEW_SEC,
        requiredClaims: ['exp', 'iat', 'nonce'],
      });
      const iat = payload.iat!;
      if (iat > now().getTime() / 1000 + CLOCK_SKEW_SEC)
        throw new LtiRefusal(LTI_MESSAGES.notYet, 401, platform);
      return { payload, platform };
    } catch (error) {
      if (error instanceof LtiRefusal) throw error;
      throw new LtiRefusal(refusalOf(error), 401, platform);
    }
  }

  /** Marks the login used, once; checks it is this launch's (platform, nonce, browser). */
  async function useState(
    state: string,
    payload: JWTPayload,
    platform: LtiPlatform,
    cookie: (name: string) => string | undefined,
  ) {
    const [row] = await db.select().from(ltiLoginStates).where(eq(ltiLoginStates.state, state));
    if (!row || row.expiresAt < now() || row.platformId !== platform.id)
      throw new LtiRefusal(LTI_MESSAGES.state, 401, platform);
    if (row.usedAt) throw new LtiRefusal(LTI_MESSAGES.replayed, 401, platform);
    if (row.nonce !== payload.nonce) throw new LtiRefusal(LTI_MESSAGES.nonce, 401, platform);
    if (row.storage === 'cookie' && cookie(STATE_COOKIE_PREFIX + state) !== hash(row.nonce))
      throw new LtiRefusal(LTI_MESSAGES.browser, 401, platform);
    const [used] = await db
      .update(ltiLoginStates)
      .set({ usedAt: now() })
      .where(and(eq(ltiLoginStates.state, state), isNull(ltiLoginStates.usedAt)))
      .returning();
    if (!used) throw new LtiRefusal(LTI_MESSAGES.replayed, 401, platform);
    return row.storage.startsWith('platform:') ? row.storage.slice('platform:'.length) : null;
  }

  return {
    config: lti,
    platforms,
    grades,
    /** Members of a course, by NRPS (the teacher view's roster); null when the course has none. */
    readCourseMembers: roster.readCourseMembers,

    async login(input: Record<string, string | undefined>): Promise<LoginResult> {
      const { iss, login_hint, target_link_uri } = input;
      if (!iss || !login_hint || !target_link_uri) throw new LtiRefusal(LTI_MESSAGES.loginFields);
      const platform = await platforms.find(iss, input.client_id);
      if (!platform) throw new LtiRefusal(LTI_MESSAGES.unknownPlatform, 401);
      let target: URL;
      try {
        target = new URL(target_link_uri);
      } catch {
        throw new LtiRefusal(LTI_MESSAGES.target, 400, platform);
      }
      if (target.origin !== ownOrigin) throw new LtiRefusal(LTI_MESSAGES.target, 400, platform);
      if (input.lti_deployment_id && !platform.deploymentIds.includes(input.lti_deployment_id))
        throw new LtiRefusal(LTI_MESSAGES.deployment, 401, platform);
      await prune();
      const state = token();
      const nonce = token();
      const storageTarget = input.lti_storage_target?.trim() || null;
      await db.insert(ltiLoginStates).values({
        state,
        nonce,
        platformId: platform.id,
        storage: storageTarget ? `platform:${storageTarget}` : 'cookie',
        expiresAt: new Date(now().getTime() + LOGIN_TTL_MS),
      });
      const url = new URL(platform.authLoginUrl);
      const params: Record<string, string> = {
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: platform.clientId,
        redirect_uri: launchUrl,
        login_hint,
        state,
        nonce,
      };
      if (input.lti_message_hint) params.lti_message_hint = input.lti_message_hint;
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      if (!storageTarget)
        return { kind: 'redirect', url: url.toString(), state, cookie: hash(nonce), platform };
      return {
        kind: 'storage',
        url: url.toString(),
        state,
        nonce,
        target: storageTarget,
        origin: new URL(platform.authLoginUrl).origin,
        platform,
      };
    },

    async launch(
      idToken: string | undefined,
      state: string | undefined,
      cookie: (name: string) => string | undefined,
      /** The client's address: new accounts are limited per address. */
      client: string,
    ): Promise<LaunchResult> {
      if (!idToken) throw new LtiRefusal(LTI_MESSAGES.noToken);
      const { payload, platform } = await verify(idToken);
      const deployment = payload[CLAIMS.deploymentId];
      if (
        typeof deployment !== 'string' ||
        (platform.deploymentIds.length > 0 && !platform.deploymentIds.includes(deployment))
      )
        throw new LtiRefusal(LTI_MESSAGES.deployment, 401, platform);
      if (payload[CLAIMS.version] !== '1.3.0')
        throw new LtiRefusal(LTI_MESSAGES.version, 400, platform);
      const messageType = payload[CLAIMS.messageType];
      if (!MESSAGE_TYPES.includes(messageType as (typeof MESSAGE_TYPES)[number]))
        throw new LtiRefusal(LTI_MESSAGES.messageType, 400, platform);
      if (!state) throw new LtiRefusal(LTI_MESSAGES.state, 401, platform);
      const sub = shortText(payload.sub, 255);
      if (!sub) throw new LtiRefusal(LTI_MESSAGES.claims('sub'), 400, platform);
      const context = claim(payload, CLAIMS.context, ContextClaim);
      const role = roleOf(payload[CLAIMS.roles]);
      const storageTarget = await useState(state, payload, platform, cookie);
      const storage = storageTarget
        ? {
            target: storageTarget,
            origin: new URL(platform.authLoginUrl).origin,
            state,
            nonce: String(payload.nonce),
          }
        : null;

      if (messageType === 'LtiDeepLinkingRequest') {
        if (role === 'learner') throw new LtiRefusal(LTI_MESSAGES.deepLinkRole, 403, platform);
        const settings = claim(payload, CLAIMS.deepLinkingSettings, DeepLinkingSettings);
        if (!settings)
          throw new LtiRefusal(LTI_MESSAGES.claims('deep_linking_settings'), 400, platform);
        if (settings.accept_types.length > 0 && !settings.accept_types.includes('ltiResourceLink'))
          throw new LtiRefusal(LTI_MESSAGES.deepLinkTypes, 400, platform);
        const code = await handoff(
          'deep_link',
          {
            platformId: platform.id,
            deploymentId: deployment,
            returnUrl: settings.deep_link_return_url,
            ...(settings.data !== undefined && { data: settings.data }),
          },
          DEEP_LINK_TTL_MS,
        );
        return { platform, kind: 'deep_link', code, next: '', storage: null };
      }

      const resourceLink = claim(payload, CLAIMS.resourceLink, ResourceLinkClaim);
      if (!resourceLink) throw new LtiRefusal(LTI_MESSAGES.claims('resource_link'), 400, platform);
      const name = displayName(payload);
      const userId = await findOrCreateUser(platform, sub, name, client);
      let next = viewPath(payload);

      if (context) {
        const key = `${platform.issuer}|${platform.clientId}|${context.id}`;
        const nrps = claim(payload, CLAIMS.nrps, NrpsClaim);
        const at = now();
        await db
          .insert(ltiContexts)
          .values({
            key,
            platformId: platform.id,
            title: context.title ?? context.label ?? null,
            nrps: nrps ?? null,
            updatedAt: at,
          })
          .onConflictDoUpdate({
            target: ltiContexts.key,
            set: {
              title: context.title ?? context.label ?? null,
              ...(nrps && { nrps }),
              updatedAt: at,
            },
          });
        await db
          .insert(ltiMemberships)
          .values({ contextKey: key, userId, role, updatedAt: at })
          .onConflictDoUpdate({
            target: [ltiMemberships.contextKey, ltiMemberships.userId],
            set: { role, updatedAt: at },
          });
        if (deps.classes) {
          const { classId } = await deps.classes.joinClass({
            userId,
            source: 'lti',
            externalKey: key,
            name: context.title ?? context.label ?? context.id,
            role,
          });
          if (role !== 'learner') next = `/teach?class=${encodeURIComponent(classId)}`;
        }
      }

      const ags = claim(payload, CLAIMS.ags, AgsClaim);
      if (
        role === 'learner' &&
        ags &&
        ags.scope.includes(SCOPES.score) &&
        (ags.lineitem || ags.lineitems)
      ) {
        const values = {
          userId,
          platformId: platform.id,
          subject: sub,
          resourceLinkId: resourceLink.id,
          lineItem: ags.lineitem ?? null,
          lineItems: ags.lineitems ?? null,
          scopes: ags.scope,
          updatedAt: now(),
        };
        await db
          .insert(ltiGradeLinks)
          .values(values)
          .onConflictDoUpdate({
            target: [ltiGradeLinks.userId, ltiGradeLinks.platformId, ltiGradeLinks.resourceLinkId],
            set: {
              subject: sub,
              scopes: ags.scope,
              updatedAt: values.updatedAt,
              ...(ags.lineitem && { lineItem: ags.lineitem }),
              lineItems: values.lineItems,
            },
          });
      }

      const code = await handoff(
        'session',
        { userId, ...(storage && { state: storage.state, nonce: storage.nonce }) },
        HANDOFF_TTL_MS,
      );
      const separator = next.includes('?') ? '&' : '?';
      next = `${next}${separator}lti=${encodeURIComponent(platform.id)}`;
      return { platform, kind: 'session', code, next, storage };
    },

    /** The launched page's one-time code (with platform storage's state and nonce) → its session. */
    async session(input: { code: string; state?: string | undefined; nonce?: string | undefined }) {
      const payload = await takeHandoff(input.code, 'session');
      if (!payload) throw new LtiRefusal(LTI_MESSAGES.handoff, 401);
      if (
        typeof payload.state === 'string' &&
        (payload.state !== input.state || payload.nonce !== input.nonce)
      )
        throw new LtiRefusal(LTI_MESSAGES.proof, 401);
      return transaction(db, (tx) => deps.sessions.startSession(tx, String(payload.userId)));
    },

    /** The instructor's choice → a signed LtiDeepLinkingResponse and where to post it. */
    async deepLink(code: string, view: string | undefined) {
      const choice = view === 'chat' || view === 'goals' ? view : null;
      if (!choice) throw new LtiRefusal(LTI_MESSAGES.deepLinkChoice);
      const payload = await takeHandoff(code, 'deep_link');
      if (!payload) throw new LtiRefusal(LTI_MESSAGES.handoff, 401);
      const platform = await platforms.byId(String(payload.platformId));
      if (!platform) throw new LtiRefusal(LTI_MESSAGES.unknownPlatform, 401);
      const item =
        choice === 'chat'
          ? {
              type: 'ltiResourceLink',
              title: 'Ayah tutor',
              text: 'Ask the AI tutor for hints and step-by-step help.',
              url: `${publicUrl}/assistant`,
              custom: { ayah_view: 'chat' },
            }
          : {
              type: 'ltiResourceLink',
              title: 'Weekly goals',
              text: 'Set weekly learning goals and log progress; graded by the week’s average.',
              url: `${publicUrl}/goal`,
              custom: { ayah_view: 'goals' },
              lineItem: { scoreMaximum: 100, label: 'Weekly goals', tag: 'ayah-weekly-goals' },
            };
      const jwt = await signAsTool(
        lti.keys,
        {
          iss: platform.clientId,
          aud: platform.issuer,
          azp: platform.clientId,
          nonce: token(),
          [CLAIMS.deploymentId]: String(payload.deploymentId),
          [CLAIMS.messageType]: 'LtiDeepLinkingResponse',
          [CLAIMS.version]: '1.3.0',
          [CLAIMS.contentItems]: [item],
          ...(typeof payload.data === 'string' && { [CLAIMS.data]: payload.data }),
        },
        now(),
      );
      return { platform, returnUrl: String(payload.returnUrl), jwt };
    },
  };
}

export type LtiService = ReturnType<typeof createLtiService>;
