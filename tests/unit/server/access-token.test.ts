/**
 * An access token's first check (server/auth/jwt-hs256.ts through verifyAccessToken), token by
 * token: each case changes one thing of a good token and says what the check answers. Every answer
 * is also compared with jose's `jwtVerify` under the options the server gave it before, so that the
 * check stays jose's, except where it deliberately refuses more (NARROWER). Over HTTP:
 * tests/server/auth/auth-session.test.ts.
 */
import { createHmac, randomUUID } from 'node:crypto';

import { errors, jwtVerify, SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';

import {
  JWT_AUDIENCE,
  JWT_ISSUER,
  signAccessToken,
  verifyAccessToken,
} from '../../../server/auth/tokens';
import { base64url, handSignedJwt, hs256 } from '../../support/jwt';

const secret = new TextEncoder().encode('unit-test-secret-'.repeat(3));
const otherSecret = new TextEncoder().encode('another-secret-!'.repeat(3));
const now = new Date('2026-11-26T10:00:00Z');
const at = Math.floor(now.getTime() / 1000);
const HEADER = { alg: 'HS256', typ: 'JWT' };

/** A good payload, one claim changed (undefined removes it). */
function claims(change: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    sid: randomUUID(),
    tv: 0,
    sub: randomUUID(),
    iss: JWT_ISSUER,
    aud: JWT_AUDIENCE,
    iat: at - 60,
    exp: at + 600,
    jti: randomUUID(), // every token different: a verified token is remembered
  };
  for (const [claim, value] of Object.entries(change)) {
    if (value === undefined) delete base[claim];
    else base[claim] = value;
  }
  return base;
}

const hand = (change: Record<string, unknown> = {}, header: Record<string, unknown> = HEADER) =>
  handSignedJwt(header, claims(change), secret);

/** What jose said of the token, with the checks verifyAccessToken added after it. */
async function joseVerdict(token: string, key: Uint8Array = secret) {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: now,
      clockTolerance: 5,
    });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const { sub, sid, tv } = payload;
    const good =
      typeof sub === 'string' && uuid.test(sub) && typeof sid === 'string' && uuid.test(sid);
    return good && Number.isInteger(tv) ? 'ok' : 'invalid';
  } catch (error) {
    return error instanceof errors.JWTExpired ? 'expired' : 'invalid';
  }
}

async function verdict(token: string, key: Uint8Array = secret) {
  const result = await verifyAccessToken(token, key, now);
  return result.ok ? 'ok' : result.reason;
}

type Case = [name: string, token: () => string | Promise<string>, expected: string];

/** Our answer, and jose's: the same unless `jose` says what jose answered instead. */
async function check([name, token, expected]: Case, jose = expected, key = secret) {
  const built = await token();
  expect(await verdict(built, key), name).toBe(expected);
  expect(await joseVerdict(built, key), `${name} (jose)`).toBe(jose);
}

/** A good payload in base64url whose length is not a multiple of 4 (padded, it would end in =). */
function payloadNeedingPadding(): string {
  const payload = claims({ pad: '' });
  let encoded = base64url(JSON.stringify(payload));
  while (encoded.length % 4 === 0) {
    payload.pad += 'x';
    encoded = base64url(JSON.stringify(payload));
  }
  return encoded;
}

/** The same token with its last part replaced. */
function withSignature(token: string, signature: string): string {
  return `${token.slice(0, token.lastIndexOf('.'))}.${signature}`;
}

function flipByte(signature: string, index: number): string {
  const bytes = Buffer.from(signature, 'base64url');
  bytes[index]! ^= 0x01;
  return bytes.toString('base64url');
}

describe('verifyAccessToken, a token seen for the first time', () => {
  it('accepts what signAccessToken issues, and a good token built by hand', async () => {
    const issued = await signAccessToken(
      { sub: randomUUID(), sid: randomUUID(), tv: 2 },
      secret,
      now,
      1800,
    );
    await check(['issued', () => issued, 'ok']);
    // The hand-built tokens below differ from this one by the one thing each case names.
    await check(['by hand', () => hand(), 'ok']);
    await check([
      'by jose',
      () => new SignJWT(claims()).setProtectedHeader(HEADER).sign(secret),
      'ok',
    ]);
  });

  it('refuses a signature that is not ours', async () => {
    const cases: Case[] = [
      ['another secret', () => handSignedJwt(HEADER, claims(), otherSecret), 'invalid'],
      ...[0, 15, 31].map((i): Case => {
        const token = hand();
        const signature = token.split('.')[2]!;
        return [`byte ${i} flipped`, () => withSignature(token, flipByte(signature, i)), 'invalid'];
      }),
      [
        'signature cut short',
        () => withSignature(hand(), hand().split('.')[2]!.slice(0, 40)),
        'invalid',
      ],
      ['no signature', () => withSignature(hand(), ''), 'invalid'],
      [
        'claims changed after signing',
        () => {
          const [header, , signature] = hand().split('.');
          return `${header}.${base64url(JSON.stringify(claims()))}.${signature}`;
        },
        'invalid',
      ],
    ];
    for (const item of cases) await check(item);
    // And the good token is refused under a secret other than the one that signed it.
    await check(['checked with another secret', () => hand(), 'invalid'], 'invalid', otherSecret);
  });

  it('refuses any algorithm but HS256, even over a good HMAC-SHA-256', async () => {
    const cases: Case[] = [
      ['alg none, empty signature', () => new UnsecuredJWT(claims()).encode(), 'invalid'],
      ['alg none, signed', () => hand({}, { alg: 'none', typ: 'JWT' }), 'invalid'],
      ['alg HS512, signed with SHA-256', () => hand({}, { alg: 'HS512', typ: 'JWT' }), 'invalid'],
      ['alg hs256', () => hand({}, { alg: 'hs256', typ: 'JWT' }), 'invalid'],
      ['no alg', () => hand({}, { typ: 'JWT' }), 'invalid'],
      [
        'alg HS512, signed with SHA-512',
        () => new SignJWT(claims()).setProtectedHeader({ alg: 'HS512' }).sign(secret),
        'invalid',
      ],
      ['header an array', () => handSignedJwt('["HS256"]', claims(), secret), 'invalid'],
      ['header not JSON', () => handSignedJwt('{alg:HS256}', claims(), secret), 'invalid'],
    ];
    for (const item of cases) await check(item);
  });

  it('refuses critical extensions and an unencoded payload', async () => {
    const cases: Case[] = [
      ['crit exp', () => hand({}, { ...HEADER, crit: ['exp'], exp: at + 600 }), 'invalid'],
      ['crit empty', () => hand({}, { ...HEADER, crit: [] }), 'invalid'],
      ['crit b64 false', () => hand({}, { ...HEADER, crit: ['b64'], b64: false }), 'invalid'],
      [
        'crit b64 false, payload in clear',
        () => {
          const header = base64url(JSON.stringify({ alg: 'HS256', b64: false, crit: ['b64'] }));
          const clear = JSON.stringify(claims());
          return `${header}.${clear}.${hs256(`${header}.${clear}`, secret)}`;
        },
        'invalid',
      ],
    ];
    for (const item of cases) await check(item);
    // NARROWER: jose took these two; our tokens never carry either header.
    await check(
      ['crit b64 true', () => hand({}, { ...HEADER, crit: ['b64'], b64: true }), 'invalid'],
      'ok',
    );
    await check(
      ['b64 false outside crit', () => hand({}, { ...HEADER, b64: false }), 'invalid'],
      'ok',
    );
  });

  it('refuses a payload that is not a JSON object', async () => {
    const payloads = ['[1,2]', '"claims"', '42', 'null', 'true', '{"sub":', ''];
    for (const payload of payloads) {
      await check([payload || 'empty', () => handSignedJwt(HEADER, payload, secret), 'invalid']);
    }
    // Bytes that are not UTF-8 are refused, not repaired.
    const text = Buffer.from(JSON.stringify(claims({ name: 'X' })));
    text[text.indexOf('"X"') + 1] = 0xff;
    await check(['not UTF-8', () => handSignedJwt(HEADER, text, secret), 'invalid']);
  });

  it('requires exp, iat and sub, and numbers for the times', async () => {
    const cases: Case[] = [
      ['no exp', () => hand({ exp: undefined }), 'invalid'],
      ['no iat', () => hand({ iat: undefined }), 'invalid'],
      ['no sub', () => hand({ sub: undefined }), 'invalid'],
      ['no iss', () => hand({ iss: undefined }), 'invalid'],
      ['no aud', () => hand({ aud: undefined }), 'invalid'],
      ['exp a string', () => hand({ exp: String(at + 600) }), 'invalid'],
      ['exp null', () => hand({ exp: null }), 'invalid'],
      ['iat a string', () => hand({ iat: String(at) }), 'invalid'],
      ['nbf a string', () => hand({ nbf: String(at) }), 'invalid'],
      ['sub not a user id', () => hand({ sub: 'alice' }), 'invalid'],
      ['sid missing', () => hand({ sid: undefined }), 'invalid'],
      ['tv not an integer', () => hand({ tv: 1.5 }), 'invalid'],
    ];
    for (const item of cases) await check(item);
  });

  it('checks issuer and audience; an audience list holding ours is ours', async () => {
    const cases: Case[] = [
      ['another issuer', () => hand({ iss: 'someone-else' }), 'invalid'],
      ['issuer in a list', () => hand({ iss: [JWT_ISSUER] }), 'invalid'],
      ['another audience', () => hand({ aud: 'another-api' }), 'invalid'],
      ['audience list with ours', () => hand({ aud: ['another-api', JWT_AUDIENCE] }), 'ok'],
      ['audience list without ours', () => hand({ aud: ['another-api'] }), 'invalid'],
      ['audience empty list', () => hand({ aud: [] }), 'invalid'],
      ['audience an object', () => hand({ aud: { 0: JWT_AUDIENCE } }), 'invalid'],
    ];
    for (const item of cases) await check(item);
  });

  it('says expired past exp and its 5 s tolerance, and only when all else holds', async () => {
    const cases: Case[] = [
      ['expired a minute ago', () => hand({ exp: at - 60 }), 'expired'],
      ['expired 5 s ago', () => hand({ exp: at - 5 }), 'expired'],
      ['expired 4 s ago, within the tolerance', () => hand({ exp: at - 4 }), 'ok'],
      ['expiring now', () => hand({ exp: at }), 'ok'],
      // jose looked at the signature, the header, iss, aud and nbf first, and sub/sid/tv after.
      ['expired, another issuer', () => hand({ exp: at - 60, iss: 'x' }), 'invalid'],
      ['expired, not yet valid', () => hand({ exp: at - 60, nbf: at + 60 }), 'invalid'],
      ['expired, no iat', () => hand({ exp: at - 60, iat: undefined }), 'invalid'],
      ['expired, sid not an id', () => hand({ exp: at - 60, sid: 'x' }), 'expired'],
      [
        'expired, another secret',
        () => handSignedJwt(HEADER, claims({ exp: at - 60 }), otherSecret),
        'invalid',
      ],
    ];
    for (const item of cases) await check(item);
  });

  it('refuses a token not yet valid (nbf), with the same tolerance; iat may be ahead', async () => {
    const cases: Case[] = [
      ['nbf in a minute', () => hand({ nbf: at + 60 }), 'invalid'],
      ['nbf in 6 s', () => hand({ nbf: at + 6 }), 'invalid'],
      ['nbf in 5 s, within the tolerance', () => hand({ nbf: at + 5 }), 'ok'],
      ['nbf past', () => hand({ nbf: at - 60 }), 'ok'],
      // jose checked iat's place in time only with maxTokenAge, which the server never gave it.
      ['iat an hour ahead', () => hand({ iat: at + 3600 }), 'ok'],
    ];
    for (const item of cases) await check(item);
  });

  it('refuses anything but three canonical base64url parts', async () => {
    const good = hand();
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const cases: Case[] = [
      ['a fourth part', () => `${good}.${signature}`, 'invalid'],
      ['a trailing dot', () => `${good}.`, 'invalid'],
      ['two parts', () => `${header}.${payload}`, 'invalid'],
      ['one part', () => header, 'invalid'],
      ['empty', () => '', 'invalid'],
      ['a "+" in the signature', () => withSignature(good, `+${signature.slice(1)}`), 'invalid'],
    ];
    for (const item of cases) await check(item);
    // NARROWER: jose decoded these with atob, which skips padding, blanks and the unused low bits
    // of the last character; the same signature or signed text written another way is refused.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // 32 bytes in 43 characters: the last one's 2 low bits are unused, 0 when written canonically.
    const otherLast = alphabet[alphabet.indexOf(signature.at(-1)!) + 1];
    const unpadded = payloadNeedingPadding();
    const narrower: Case[] = [
      ['padded signature', () => `${good}=`, 'invalid'],
      [
        'blank in the signature',
        () => withSignature(good, `${signature.slice(0, 10)} ${signature.slice(10)}`),
        'invalid',
      ],
      [
        'stray bits in the signature',
        () => withSignature(good, `${signature.slice(0, -1)}${otherLast}`),
        'invalid',
      ],
      [
        'padded payload, signed as written',
        () => {
          const padded = `${unpadded}${'='.repeat(4 - (unpadded.length % 4))}`;
          return `${header}.${padded}.${hs256(`${header}.${padded}`, secret)}`;
        },
        'invalid',
      ],
    ];
    for (const item of narrower) await check(item, 'ok');
    expect(unpadded.length % 4).not.toBe(0); // so that the padded payload above has padding
  });
});

describe('verifyAccessToken, the HMAC itself', () => {
  it('is HMAC-SHA-256 over the first two parts as sent', async () => {
    const header = base64url(JSON.stringify(HEADER));
    const payload = base64url(JSON.stringify(claims()));
    const mac = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
    expect(await verdict(`${header}.${payload}.${mac}`)).toBe('ok');
  });
});
