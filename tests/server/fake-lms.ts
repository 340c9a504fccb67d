/**
 * An LTI 1.3 platform for the tests (a learning management system as Moodle or Canvas is, reduced to
 * its LTI boundary), speaking the real wire protocol over node:http: the OIDC authorization endpoint
 * (answering a tool's login with an auto-posted id_token), its JWKS, the OAuth 2 token endpoint
 * (client credentials with the tool's signed JWT assertion, checked against the tool's JWKS), AGS line
 * items and scores, NRPS memberships (paged), the deep-link return, Dynamic Registration, and a course
 * page that frames the tool and answers the tool's platform-storage postMessages.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { JWK, JWTPayload } from 'jose';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
export const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const NRPS_CLAIM = 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice';
export const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
export const ROLE = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  admin: 'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
};

/** Who a login hint stands for, and what their launch says. */
export interface LaunchPlan {
  sub: string;
  name?: string;
  roles?: string[];
  messageType?: 'LtiResourceLinkRequest' | 'LtiDeepLinkingRequest';
  custom?: Record<string, string>;
  resourceLinkId?: string;
  contextId?: string;
  /** Give an AGS claim with `lineitem` (the item made at start), or only `lineitems`. */
  ags?: 'lineitem' | 'lineitems' | null;
  /** Claims to add or override (`undefined` removes one). */
  claims?: Record<string, unknown>;
}

export interface Score {
  lineItem: string;
  body: Record<string, unknown>;
  userAgent: string | undefined;
  contentType: string | undefined;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });

export class FakeLms {
  issuer = '';
  /** The host the browser reaches this platform on (a different site from the tool's). */
  constructor(
    private readonly host = '127.0.0.1',
    readonly clientId = `client-${randomBytes(4).toString('hex')}`,
    readonly deploymentId = 'deployment-1',
  ) {}
  readonly plans = new Map<string, LaunchPlan>();
  readonly scores: Score[] = [];
  readonly deepLinks: JWTPayload[] = [];
  readonly tokenRequests: { scope: string; assertion: JWTPayload }[] = [];
  readonly lineItems = new Map<string, Record<string, unknown>>();
  readonly members: Record<string, unknown>[] = [];
  readonly registrations: Record<string, unknown>[] = [];
  /** Answer the scores endpoint with this status this many times first (a platform down). */
  failScores = 0;
  jwksRequests = 0;
  toolJwksUrl = '';
  keys!: KeyPair;
  kid = randomBytes(6).toString('hex');
  private published: JWK[] = [];
  private toolKeys: ReturnType<typeof createRemoteJWKSet> | null = null;
  private port = 0;
  private readonly server = createServer((req, res) => {
    this.handle(req, res).catch((error) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  });

  async start(): Promise<this> {
    this.keys = await generateKeyPair('RS256', { extractable: true });
    this.published = [{ ...(await exportJWK(this.keys.publicKey)), kid: this.kid, alg: 'RS256' }];
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    this.issuer = `http://${this.host}:${this.port}`;
    this.lineItems.set(`${this.issuer}/lineitems/1`, {
      id: `${this.issuer}/lineitems/1`,
      scoreMaximum: 100,
      label: 'Ayah',
      resourceLinkId: 'link-1',
    });
    return this;
  }

  close(): Promise<void> {
    (this.server as { closeAllConnections?: () => void }).closeAllConnections?.();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Server-to-server calls go to loopback by IP whatever host the browser uses. */
  private get api() {
    return `http://127.0.0.1:${this.port}`;
  }

  /** This platform as an entry of AYAH_LTI_PLATFORMS. */
  registration(extra: Record<string, unknown> = {}) {
    return {
      issuer: this.issuer,
      client_id: this.clientId,
      deployment_ids: [this.deploymentId],
      auth_login_url: `${this.issuer}/auth`,
      auth_token_url: `${this.api}/token`,
      jwks_url: `${this.api}/jwks`,
      ...extra,
    };
  }

  /** Publishes a second key (rotation) and signs with it from now on. */
  async rotateKey() {
    this.keys = await generateKeyPair('RS256', { extractable: true });
    this.kid = randomBytes(6).toString('hex');
    this.published.push({ ...(await exportJWK(this.keys.publicKey)), kid: this.kid, alg: 'RS256' });
  }

  /** The id_token a launch of `plan` carries, as this platform signs it. */
  async idToken(
    plan: LaunchPlan,
    nonce: string,
    options: { key?: KeyPair['privateKey']; kid?: string; iatOffset?: number } = {},
  ): Promise<string> {
    const now = Math.floor(Date.now() / 1000) + (options.iatOffset ?? 0);
    const messageType = plan.messageType ?? 'LtiResourceLinkRequest';
    const payload: Record<string, unknown> = {
      iss: this.issuer,
      aud: this.clientId,
      sub: plan.sub,
      iat: now,
      exp: now + 300,
      nonce,
      name: plan.name ?? 'Noor Student',
      [`${CLAIM}message_type`]: messageType,
      [`${CLAIM}version`]: '1.3.0',
      [`${CLAIM}deployment_id`]: this.deploymentId,
      [`${CLAIM}target_link_uri`]: 'http://app.test/assistant',
      [`${CLAIM}roles`]: plan.roles ?? [ROLE.learner],
      [`${CLAIM}context`]: { id: plan.contextId ?? 'course-1', title: 'Algebra 1' },
      [NRPS_CLAIM]: {
        context_memberships_url: `${this.api}/memberships`,
        service_versions: ['2.0'],
      },
    };
    if (messageType === 'LtiResourceLinkRequest') {
      payload[`${CLAIM}resource_link`] = { id: plan.resourceLinkId ?? 'link-1' };
      if (plan.custom) payload[`${CLAIM}custom`] = plan.custom;
      if (plan.ags !== null) {
        const scope = [
          'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
          'https://purl.imsglobal.org/spec/lti-ags/scope/score',
        ];
        payload[AGS_CLAIM] =
          plan.ags === 'lineitems'
            ? { scope, lineitems: `${this.api}/lineitems` }
            : { scope, lineitems: `${this.api}/lineitems`, lineitem: `${this.api}/lineitems/1` };
      }
    } else {
      payload[`${DL_CLAIM}deep_linking_settings`] = {
        deep_link_return_url: `${this.issuer}/deep-link-return`,
        accept_types: ['ltiResourceLink'],
        accept_presentation_document_targets: ['iframe', 'window'],
        data: 'opaque-platform-data',
      };
    }
    Object.assign(payload, plan.claims);
    for (const [claim, value] of Object.entries(payload))
      if (value === undefined) delete payload[claim];
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? this.kid, typ: 'JWT' })
      .sign(options.key ?? this.keys.privateKey);
  }

  /** The course page: the tool framed by an LTI login, and the platform-storage frame's answers. */
  coursePage(toolLoginUrl: string, hint: string, storage: boolean, targetLinkUri: string): string {
    const login = new URL(toolLoginUrl);
    login.searchParams.set('iss', this.issuer);
    login.searchParams.set('client_id', this.clientId);
    login.searchParams.set('lti_deployment_id', this.deploymentId);
    login.searchParams.set('login_hint', hint);
    login.searchParams.set('lti_message_hint', 'link-1');
    login.searchParams.set('target_link_uri', targetLinkUri);
    if (storage) login.searchParams.set('lti_storage_target', '_parent');
    return `<!doctype html><html lang="en"><head><title>Algebra 1 — Course</title></head><body>
<h1>Algebra 1</h1>
<iframe id="tool" title="Ayah" src="${login.toString().replace(/&/g, '&amp;')}" style="width:1000px;height:700px" allow="clipboard-write"></iframe>
<script>
var store = {};
window.addEventListener('message', function (event) {
  var m = event.data;
  if (!m || typeof m !== 'object' || !m.subject) return;
  var reply = { message_id: m.message_id };
  if (m.subject === 'lti.capabilities') {
    reply.subject = 'lti.capabilities.response';
    reply.supported_messages = [{ subject: 'lti.put_data' }, { subject: 'lti.get_data' }];
  } else if (m.subject === 'lti.put_data') {
    store[event.origin + ' ' + m.key] = m.value;
    reply.subject = 'lti.put_data.response'; reply.key = m.key; reply.value = m.value;
  } else if (m.subject === 'lti.get_data') {
    reply.subject = 'lti.get_data.response'; reply.key = m.key; reply.value = store[event.origin + ' ' + m.key];
  } else return;
  window.storageLog = (window.storageLog || []).concat([m.subject]);
  event.source.postMessage(reply, event.origin);
});
</script></body></html>`;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', this.api);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { 'content-type': 'application/json', ...headers })
        .end(JSON.stringify(body));
    const bearer = () => /^Bearer platform-/.test(req.headers.authorization ?? '');

    if (url.pathname === '/jwks') {
      this.jwksRequests++;
      return json(200, { keys: this.published });
    }
    // The course page's browser asks for an icon: no content, not a 404 in the console that reads
    // as the tool's.
    if (url.pathname === '/favicon.ico') return res.writeHead(204).end();
    if (url.pathname === '/course') {
      const page = this.coursePage(
        url.searchParams.get('tool')!,
        url.searchParams.get('hint')!,
        url.searchParams.get('storage') === '1',
        url.searchParams.get('target')!,
      );
      return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
    if (url.pathname === '/auth') {
      // The OIDC authorization request (LTI Core 5.1.1.2): checked, then answered by a form post.
      const q = url.searchParams;
      const wrong = [
        ['scope', 'openid'],
        ['response_type', 'id_token'],
        ['response_mode', 'form_post'],
        ['prompt', 'none'],
        ['client_id', this.clientId],
      ].find(([name, value]) => q.get(name!) !== value);
      const plan = this.plans.get(q.get('login_hint') ?? '');
      if (wrong || !plan || !q.get('redirect_uri') || !q.get('state') || !q.get('nonce'))
        return res.writeHead(400).end(`bad authorization request ${wrong?.[0] ?? ''}`);
      const idToken = await this.idToken(plan, q.get('nonce')!);
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><html><body><form method="post" action="${esc(q.get('redirect_uri')!)}">` +
            `<input type="hidden" name="id_token" value="${esc(idToken)}">` +
            `<input type="hidden" name="state" value="${esc(q.get('state')!)}"></form>` +
            `<script>document.forms[0].submit()</script></body></html>`,
        );
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_assertion_type') !==
          'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'
      )
        return json(400, { error: 'unsupported_grant_type' });
      this.toolKeys ??= createRemoteJWKSet(new URL(this.toolJwksUrl));
      try {
        const { payload } = await jwtVerify(form.get('client_assertion')!, this.toolKeys, {
          issuer: this.clientId,
          subject: this.clientId,
          audience: `${this.api}/token`,
          algorithms: ['RS256'],
        });
        this.tokenRequests.push({ scope: form.get('scope') ?? '', assertion: payload });
      } catch {
        return json(401, { error: 'invalid_client' });
      }
      return json(200, {
        access_token: `platform-${randomUUID()}`,
        token_type: 'bearer',
        expires_in: 3600,
        scope: form.get('scope'),
      });
    }
    if (url.pathname === '/lineitems') {
      if (!bearer()) return json(401, { error: 'unauthorized' });
      if (req.method === 'POST') {
        const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
        const id = `${this.api}/lineitems/${this.lineItems.size + 1}`;
        this.lineItems.set(id, { ...body, id });
        return json(201, { ...body, id });
      }
      const link = url.searchParams.get('resource_link_id');
      return json(
        200,
        [...this.lineItems.values()].filter((item) => !link || item.resourceLinkId === link),
      );
    }
    const scores = /^\/lineitems\/(\d+)\/scores$/.exec(url.pathname);
    if (scores && req.method === 'POST') {
      if (!bearer()) return json(401, { error: 'unauthorized' });
      const body = await readBody(req);
      if (this.failScores > 0) {
        this.failScores--;
        return json(503, { error: 'down for maintenance' });
      }
      this.scores.push({
        lineItem: `${this.api}/lineitems/${scores[1]}`,
        body: JSON.parse(body) as Record<string, unknown>,
        userAgent: req.headers['user-agent'],
        contentType: req.headers['content-type'],
      });
      return res.writeHead(204).end();
    }
    if (url.pathname === '/memberships') {
      if (!bearer()) return json(401, { error: 'unauthorized' });
      const page = Number(url.searchParams.get('page') ?? '1');
      const slice = this.members.slice((page - 1) * 2, page * 2);
      const more = page * 2 < this.members.length;
      return json(
        200,
        { id: url.toString(), context: { id: 'course-1' }, members: slice },
        more ? { link: `<${this.api}/memberships?page=${page + 1}>; rel="next"` } : {},
      );
    }
    if (url.pathname === '/deep-link-return' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      this.toolKeys ??= createRemoteJWKSet(new URL(this.toolJwksUrl));
      const { payload } = await jwtVerify(form.get('JWT')!, this.toolKeys, {
        issuer: this.clientId,
        audience: this.issuer,
        algorithms: ['RS256'],
      });
      this.deepLinks.push(payload);
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Added</title><h1>Content added to the course</h1>');
    }
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer: this.issuer,
        authorization_endpoint: `${this.issuer}/auth`,
        token_endpoint: `${this.api}/token`,
        jwks_uri: `${this.api}/jwks`,
        registration_endpoint: `${this.api}/register`,
        'https://purl.imsglobal.org/spec/lti-platform-configuration': {
          product_family_code: 'fake-lms',
          version: '1.0',
          messages_supported: [
            { type: 'LtiResourceLinkRequest' },
            { type: 'LtiDeepLinkingRequest' },
          ],
        },
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      if (req.headers.authorization !== 'Bearer reg-token')
        return json(401, { error: 'bad token' });
      const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      this.registrations.push(body);
      return json(201, {
        ...body,
        client_id: 'dyn-client',
        'https://purl.imsglobal.org/spec/lti-tool-configuration': {
          ...(body['https://purl.imsglobal.org/spec/lti-tool-configuration'] as object),
          deployment_id: 'dyn-deployment',
        },
      });
    }
    res.writeHead(404).end();
  }
}
