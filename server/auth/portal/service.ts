/**
 * Portal sign-in (token exchange, shaped after RFC 8693). A school portal's backend signs a short-lived
 * JWT for its student with its own key; this checks it against the trusted issuers of
 * `AYAH_TRUSTED_ISSUERS` and signs the student in, finding or creating them by issuer + subject.
 *
 * The assertion must: name a trusted `iss` (exactly), our `aud`, be signed by that issuer's key with
 * RS256, ES256 or EdDSA (never HS* or none), carry `sub`, `jti`, `iat` and `exp`, live at most 5 minutes
 * (`exp - iat`, and `iat` no older than that), and not be used before: its `jti` is recorded per issuer
 * until it would have expired, inserted atomically, so of any number of concurrent uses one wins.
 * Everything else is `401 {detail}`.
 */
import { and, eq, lt } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';

import type { Queryable } from '../../db';
import { transaction } from '../../db';
import { portalAssertionIds, portalIdentities, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { unauthorized } from '../../http/errors';
import { limitNewAccounts } from '../../http/rate-limit';
import type { SessionService, SignedIn } from '../sessions';
import type { TrustedIssuer } from './trusted-issuers';
import { ASSERTION_ALGORITHMS } from './trusted-issuers';

export const JWT_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:jwt';

/** The longest an assertion may live (`exp - iat`), and the clock skew allowed on each check. */
export const MAX_ASSERTION_LIFETIME_SEC = 300;
const CLOCK_TOLERANCE_SEC = 30;
const JWKS_TIMEOUT_MS = 5000;

export const PORTAL_MESSAGES = {
  unconfigured: 'Portal sign-in is not configured on this server',
  tokenType: `subject_token_type must be ${JWT_TOKEN_TYPE}`,
  malformed: 'The assertion is not a well-formed JWT',
  unknownIssuer: 'The assertion comes from an issuer this server does not trust',
  algorithm: `The assertion must be signed with ${ASSERTION_ALGORITHMS.join(', ')}`,
  signature: 'The assertion signature is invalid',
  audience: 'The assertion is meant for another audience',
  expired: 'The assertion has expired',
  notYetValid: 'The assertion is not valid yet',
  missingClaim: (claim: string) => `The assertion has no "${claim}" claim`,
  tooLong: `The assertion may live at most ${MAX_ASSERTION_LIFETIME_SEC / 60} minutes (exp - iat)`,
  replayed: 'The assertion has already been used',
  keys: "The issuer's signing keys could not be fetched",
} as const;

export type PortalRole = 'learner' | 'instructor' | 'administrator';

/** The class port the root hands this domain (issue 24): a launch or assertion places its user. */
export interface ClassJoiner {
  joinClass(input: {
    userId: string;
    source: 'lti' | 'portal';
    externalKey: string;
    name: string;
    role: PortalRole;
  }): Promise<{ classId: string }>;
}

/**
 * The assertion's `roles` claim (a list, or one string separated by spaces or commas; LTI role URIs
 * such as `…membership#Instructor` or plain names) as one role: the highest named, else learner.
 */
export function portalRole(claim: unknown): PortalRole {
  const names = (
    Array.isArray(claim) ? claim : typeof claim === 'string' ? claim.split(/[\s,]+/) : []
  )
    .filter((r): r is string => typeof r === 'string')
    .map((r) => (r.split(/[#/]/).at(-1) ?? '').toLowerCase());
  if (names.includes('administrator')) return 'administrator';
  if (names.includes('instructor') || names.includes('teacher')) return 'instructor';
  return 'learner';
}

/** What a verified assertion says about the student. */
interface PortalClaims {
  issuer: string;
  subject: string;
  jti: string;
  expiresAt: Date;
  name: string;
  email: string | null;
  /** The class the portal places the user in (`class_id`, `class_name`, `roles`), if any. */
  klass: { key: string; name: string; role: PortalRole } | null;
}

const shortText = (value: unknown, max: number) =>
  typeof value === 'string' && value.trim() !== '' && value.length <= max ? value.trim() : null;

/** The student's display name: the `name` claim, else `given_name`, else "Student" (100 at most). */
function displayName(payload: JWTPayload): string {
  const name = shortText(payload.name, 1000) ?? shortText(payload.given_name, 1000) ?? 'Student';
  return name.replace(/\0/g, '').slice(0, 100);
}

function emailOf(payload: JWTPayload): string | null {
  const email = shortText(payload.email, 254);
  return email && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

/** A student's first sign-in lost a race with another first sign-in of the same identity: retry. */
class IdentityRace extends Error {}

function classOf(payload: JWTPayload): PortalClaims['klass'] {
  const key = shortText(payload.class_id, 255);
  if (!key) return null;
  const name = (shortText(payload.class_name, 1000) ?? key).replace(/\0/g, '').slice(0, 200);
  return { key, name, role: portalRole(payload.roles) };
}

export function createPortalSignIn(
  deps: Deps,
  sessions: Pick<SessionService, 'startSession'>,
  classes: ClassJoiner,
) {
  const { db, config, now } = deps;
  const issuers = new Map(config.trustedIssuers.map((issuer) => [issuer.issuer, issuer]));
  const jwksSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  function keyOf(trusted: TrustedIssuer) {
    if (trusted.keys.kind === 'key') return trusted.keys.key;
    let set = jwksSets.get(trusted.issuer);
    if (!set) {
      set = createRemoteJWKSet(new URL(trusted.keys.url), { timeoutDuration: JWKS_TIMEOUT_MS });
      jwksSets.set(trusted.issuer, set);
    }
    return set;
  }

  async function verify(token: string): Promise<PortalClaims> {
    if (issuers.size === 0) throw unauthorized(PORTAL_MESSAGES.unconfigured);
    let alg: string | undefined;
    let iss: string | undefined;
    try {
      alg = decodeProtectedHeader(token).alg;
      iss = decodeJwt(token).iss;
    } catch {
      throw unauthorized(PORTAL_MESSAGES.malformed);
    }
    const trusted = iss === undefined ? undefined : issuers.get(iss);
    if (!trusted) throw unauthorized(PORTAL_MESSAGES.unknownIssuer);
    const allowed: readonly string[] =
      trusted.keys.kind === 'key' ? [trusted.keys.algorithm] : ASSERTION_ALGORITHMS;
    if (!alg || !allowed.includes(alg)) throw unauthorized(PORTAL_MESSAGES.algorithm);

    let payload: JWTPayload;
    try {
      const options = {
        issuer: trusted.issuer,
        audience: trusted.audience,
        algorithms: [...allowed],
        currentDate: now(),
        clockTolerance: CLOCK_TOLERANCE_SEC,
        maxTokenAge: MAX_ASSERTION_LIFETIME_SEC,
        requiredClaims: ['exp', 'iat', 'sub', 'jti'],
      };
      const key = keyOf(trusted);
      ({ payload } =
        typeof key === 'function'
          ? await jwtVerify(token, key, options)
          : await jwtVerify(token, key, options));
    } catch (error) {
      throw unauthorized(refusal(error));
    }
    const subject = shortText(payload.sub, 255);
    if (!subject) throw unauthorized(PORTAL_MESSAGES.missingClaim('sub'));
    const jti = shortText(payload.jti, 255);
    if (!jti) throw unauthorized(PORTAL_MESSAGES.missingClaim('jti'));
    if (payload.exp! - payload.iat! > MAX_ASSERTION_LIFETIME_SEC)
      throw unauthorized(PORTAL_MESSAGES.tooLong);
    return {
      issuer: trusted.issuer,
      subject,
      jti,
      expiresAt: new Date((payload.exp! + CLOCK_TOLERANCE_SEC) * 1000),
      name: displayName(payload),
      email: emailOf(payload),
      klass: classOf(payload),
    };
  }

  /** The student of `issuer` + `subject`, created at their first sign-in. */
  async function studentOf(tx: Queryable, claims: PortalClaims, client: string): Promise<string> {
    const where = and(
      eq(portalIdentities.issuer, claims.issuer),
      eq(portalIdentities.subject, claims.subject),
    );
    const [known] = await tx
      .select({ userId: portalIdentities.userId })
      .from(portalIdentities)
      .where(where)
      .limit(1);
    if (known) return known.userId;
    const at = now();
    await limitNewAccounts(tx, client, config.limits.newAccountsPerAddress, at);
    const [user] = await tx
      .insert(users)
      .values({
        // Never the portal's address: one address may belong to students of two portals, and to an
        // Ayah account of its own; the identity row keeps it for the record.
        email: null,
        displayName: claims.name,
        // The portal vouches for its student; there is no address of ours to verify.
        emailVerifiedAt: at,
        createdAt: at,
        updatedAt: at,
      })
      .returning({ id: users.id });
    const [linked] = await tx
      .insert(portalIdentities)
      .values({
        issuer: claims.issuer,
        subject: claims.subject,
        userId: user!.id,
        email: claims.email,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning({ userId: portalIdentities.userId });
    if (!linked) throw new IdentityRace();
    return linked.userId;
  }

  return {
    /** Exchanges a portal's assertion for an Ayah session; 401 for anything amiss. */
    async exchange(
      subjectToken: string,
      subjectTokenType: string,
      client: string,
    ): Promise<SignedIn> {
      if (subjectTokenType !== JWT_TOKEN_TYPE) throw unauthorized(PORTAL_MESSAGES.tokenType);
      const claims = await verify(subjectToken);
      await db.delete(portalAssertionIds).where(lt(portalAssertionIds.expiresAt, now()));
      for (let attempt = 1; ; attempt++) {
        try {
          const signedIn = await transaction(db, async (tx) => {
            const [fresh] = await tx
              .insert(portalAssertionIds)
              .values({ issuer: claims.issuer, jti: claims.jti, expiresAt: claims.expiresAt })
              .onConflictDoNothing()
              .returning({ jti: portalAssertionIds.jti });
            if (!fresh) throw unauthorized(PORTAL_MESSAGES.replayed);
            return sessions.startSession(tx, await studentOf(tx, claims, client));
          });
          // The portal, not the request, says who teaches: a role changes only with a new assertion.
          if (claims.klass)
            await classes.joinClass({
              userId: signedIn.user.id,
              source: 'portal',
              externalKey: `${claims.issuer} ${claims.klass.key}`,
              name: claims.klass.name,
              role: claims.klass.role,
            });
          return signedIn;
        } catch (error) {
          // The other first sign-in has committed by now: this attempt finds its student.
          if (error instanceof IdentityRace && attempt < 3) continue;
          throw error;
        }
      }
    },
  };
}

/** jose's reason for refusing a token, in the words a portal developer needs. */
function refusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return PORTAL_MESSAGES.expired;
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return PORTAL_MESSAGES.audience;
    if (error.claim === 'nbf') return PORTAL_MESSAGES.notYetValid;
    // An `iat` in the future (one too far in the past is a JWTExpired).
    if (error.claim === 'iat' && error.reason === 'check_failed')
      return PORTAL_MESSAGES.notYetValid;
    if (error.reason === 'missing') return PORTAL_MESSAGES.missingClaim(error.claim);
    return `The assertion's "${error.claim}" claim is invalid`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return PORTAL_MESSAGES.algorithm;
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid)
    return PORTAL_MESSAGES.keys;
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return PORTAL_MESSAGES.signature;
  }
  if (error instanceof errors.JOSEError) return PORTAL_MESSAGES.malformed;
  // A JWKS that could not be fetched at all (refused connection, DNS) is a plain error.
  return PORTAL_MESSAGES.keys;
}
