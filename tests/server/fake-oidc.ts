/**
 * A local OpenID provider on loopback that speaks the real protocol, for the Google sign-in tests:
 * discovery document, `/authorize` (redirects back with a code and the state), `/token` (checks the
 * client's credentials, the redirect URI and the PKCE verifier against the S256 challenge, and answers
 * an RS256-signed ID token) and `/jwks`. Each test says who signs in next, and how the token is spoilt.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { JWK } from 'jose';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface FakeUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
}

/** How the next ID token is spoilt, if at all. */
export interface Spoil {
  audience?: string;
  issuer?: string;
  /** Seconds from now; negative for a token that has already expired. */
  expiresIn?: number;
  /** Signed with a key the provider never published (under the published key's id). */
  foreignKey?: boolean;
  /** No id_token in the answer at all. */
  noIdToken?: boolean;
}

interface Grant {
  user: FakeUser;
  spoil: Spoil;
  clientId: string;
  redirectUri: string;
  challenge: string;
  used: boolean;
}

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export class FakeOidcProvider {
  readonly clientId = 'ayah-test-client.apps.example';
  readonly clientSecret = randomBytes(16).toString('hex');
  issuer = '';
  /** Who signs in at the next /authorize, and how the ID token is spoilt. */
  next: { user: FakeUser; spoil?: Spoil } = { user: { sub: '1' } };
  /** Every /token request's outcome, for assertions. */
  readonly tokenRequests: { status: number; error?: string }[] = [];
  private keys!: KeyPair;
  private foreign!: KeyPair;
  private publicJwk!: JWK;
  private readonly kid = randomBytes(6).toString('hex');
  private readonly grants = new Map<string, Grant>();
  private server = createServer((req, res) => void this.handle(req, res));

  async start(): Promise<this> {
    this.keys = await generateKeyPair('RS256');
    this.foreign = await generateKeyPair('RS256');
    this.publicJwk = { ...(await exportJWK(this.keys.publicKey)), kid: this.kid, alg: 'RS256' };
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.issuer = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The environment that points the server at this provider. */
  env(): Record<string, string> {
    return {
      GOOGLE_CLIENT_ID: this.clientId,
      GOOGLE_CLIENT_SECRET: this.clientSecret,
      AYAH_GOOGLE_ISSUER: this.issuer,
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.issuer);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return send(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/authorize`,
        token_endpoint: `${this.issuer}/token`,
        jwks_uri: `${this.issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/jwks') return send(200, { keys: [this.publicJwk] });
    if (url.pathname === '/authorize' && req.method === 'GET') return this.authorize(url, res);
    if (url.pathname === '/token' && req.method === 'POST') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const { status, body } = await this.token(req, Buffer.concat(chunks).toString());
      this.tokenRequests.push({ status, error: (body as { error?: string }).error });
      return send(status, body, { 'cache-control': 'no-store' });
    }
    send(404, { error: 'not_found' });
  }

  private authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    const fail = (error: string) => {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(error);
    };
    if (q.get('client_id') !== this.clientId) return fail('unknown client');
    if (q.get('response_type') !== 'code') return fail('unsupported response_type');
    if (q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      return fail('PKCE S256 required');
    }
    if (!(q.get('scope') ?? '').split(' ').includes('openid')) return fail('openid scope required');
    const code = randomBytes(16).toString('base64url');
    this.grants.set(code, {
      user: this.next.user,
      spoil: this.next.spoil ?? {},
      clientId: this.clientId,
      redirectUri,
      challenge: q.get('code_challenge')!,
      used: false,
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.get('state') ?? '');
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  private async token(
    req: IncomingMessage,
    raw: string,
  ): Promise<{ status: number; body: object }> {
    const form = new URLSearchParams(raw);
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [id, secret] = basic
      ? Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent)
      : [form.get('client_id'), form.get('client_secret')];
    if (id !== this.clientId || secret !== this.clientSecret) {
      return { status: 401, body: { error: 'invalid_client' } };
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    const grant = this.grants.get(form.get('code') ?? '');
    if (!grant || grant.used) return { status: 400, body: { error: 'invalid_grant' } };
    grant.used = true;
    if (form.get('redirect_uri') !== grant.redirectUri) {
      return { status: 400, body: { error: 'invalid_grant' } };
    }
    const challenge = createHash('sha256')
      .update(form.get('code_verifier') ?? '')
      .digest('base64url');
    if (challenge !== grant.challenge) return { status: 400, body: { error: 'invalid_grant' } };
    const { user, spoil } = grant;
    const now = Math.floor(Date.now() / 1000);
    const idToken = await new SignJWT({ ...user })
      .setProtectedHeader({ alg: 'RS256', kid: this.kid, typ: 'JWT' })
      .setIssuer(spoil.issuer ?? this.issuer)
      .setAudience(spoil.audience ?? grant.clientId)
      .setSubject(user.sub)
      .setIssuedAt(now - 10)
      .setExpirationTime(now + (spoil.expiresIn ?? 3600))
      .sign(spoil.foreignKey ? this.foreign.privateKey : this.keys.privateKey);
    return {
      status: 200,
      body: {
        access_token: randomBytes(16).toString('hex'),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'openid email profile',
        ...(spoil.noIdToken ? {} : { id_token: idToken }),
      },
    };
  }
}
