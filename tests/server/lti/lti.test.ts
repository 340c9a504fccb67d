/**
 * LTI 1.3 over real HTTP against an emulated platform (fake-lms.ts), on PGlite and PostgreSQL: the
 * tool's JWKS, the OIDC login, launches good and forged (each refusal a plain 4xx page with no
 * session), the launched page's one-time hand-off, platform storage, framing, grades through the
 * outbox, deep linking, the roster, and Dynamic Registration.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import { decodeProtectedHeader, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadConfig } from '../../../server/config';
import { loadLtiKeys, platformId } from '../../../server/lti/config';
import { signAsTool, toolJwks } from '../../../server/lti/keys';
import { createLtiService, LTI_MESSAGES } from '../../../server/lti/service';
import { FakeLms, type LaunchPlan, ROLE } from '../fake-lms';
import { describeServer, type Loose, useTestServer } from '../harness';

const lms = new FakeLms();
const dynamic = new FakeLms('127.0.0.1', 'dyn-client', 'dyn-deployment');
let platforms = '';

beforeAll(async () => {
  await Promise.all([lms.start(), dynamic.start()]);
  platforms = JSON.stringify([lms.registration()]);
});
afterAll(() => Promise.all([lms.close(), dynamic.close()]));

const h = useTestServer({
  env: () => ({ AYAH_LTI_PLATFORMS: platforms, AYAH_LTI_DYNAMIC_REGISTRATION: '1' }),
});
const LTI = '/api/v1/lti';

beforeAll(() => {
  lms.toolJwksUrl = `${h.url}${LTI}/jwks`;
  dynamic.toolJwksUrl = `${h.url}${LTI}/jwks`;
});

interface Login {
  state: string;
  nonce: string;
  cookie: string;
  location: URL;
  setCookie: string;
}

async function login(
  platform: FakeLms = lms,
  extra: Record<string, string> = {},
  hint = 'hint',
): Promise<Login> {
  const params = new URLSearchParams({
    iss: platform.issuer,
    login_hint: hint,
    target_link_uri: 'http://app.test/assistant',
    client_id: platform.clientId,
    lti_deployment_id: platform.deploymentId,
    lti_message_hint: 'link-1',
    ...extra,
  });
  const res = await fetch(`${h.url}${LTI}/login?${params}`, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return {
    state: location.searchParams.get('state')!,
    nonce: location.searchParams.get('nonce')!,
    cookie: setCookie.split(';')[0]!,
    location,
    setCookie,
  };
}

async function launch(fields: Record<string, string>, cookie = '') {
  const res = await fetch(`${h.url}${LTI}/launch`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie && { cookie }),
    },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

/** The hand-off the launched page's script reads. */
function pageData(text: string): Loose {
  const match = /<script type="application\/json" id="lti-data">([\s\S]*?)<\/script>/.exec(text);
  return match ? JSON.parse(match[1]!) : null;
}

/** A whole launch of `plan`, as the browser makes it: login, id_token, hand-off, session. */
async function launchAs(plan: LaunchPlan, platform: FakeLms = lms) {
  const l = await login(platform);
  const page = await launch(
    { id_token: await platform.idToken(plan, l.nonce), state: l.state },
    l.cookie,
  );
  expect(page.status, page.text).toBe(200);
  const data = pageData(page.text)!;
  const session = await h.post(`${LTI}/session`, { code: data.code });
  expect(session.status, session.text).toBe(200);
  return { data, session: session.body, page };
}

const sub = () => `sub-${randomUUID().slice(0, 8)}`;

describeServer('LTI 1.3', () => {
  it('publishes its key at the JWKS, RS256 with a kid', async () => {
    const { status, body } = await h.get(`${LTI}/jwks`);
    expect(status).toBe(200);
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(body.keys[0].kid).toEqual(expect.any(String));
    expect(body.keys[0].d).toBeUndefined();
  });

  it('answers the login with an OIDC request to the platform and a partitioned state cookie', async () => {
    const l = await login();
    expect(l.location.origin + l.location.pathname).toBe(`${lms.issuer}/auth`);
    const q = Object.fromEntries(l.location.searchParams);
    expect(q).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: lms.clientId,
      redirect_uri: 'http://app.test/api/v1/lti/launch',
      login_hint: 'hint',
      lti_message_hint: 'link-1',
    });
    expect(q.state!.length).toBeGreaterThan(20);
    expect(q.nonce!.length).toBeGreaterThan(20);
    expect(q.state).not.toBe(q.nonce);
    expect(l.setCookie).toMatch(/SameSite=None/i);
    expect(l.setCookie).toMatch(/Secure/);
    expect(l.setCookie).toMatch(/Partitioned/);
    expect(l.setCookie).toMatch(/HttpOnly/);
  });

  it('refuses a login from an unknown platform with a plain page', async () => {
    const res = await fetch(
      `${h.url}${LTI}/login?iss=https://evil.example&login_hint=x&target_link_uri=http://app.test/`,
    );
    expect(res.status).toBe(401);
    const text = await res.text();
    expect(text).toContain(LTI_MESSAGES.unknownPlatform.replace(/'/g, '&#39;'));
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('signs a student in by (platform, sub), once per code, framed by the platform only', async () => {
    const student = sub();
    const first = await launchAs({ sub: student, name: 'Noor Haddad' });
    expect(first.page.headers.get('content-security-policy')).toContain(
      `frame-ancestors ${lms.issuer}`,
    );
    expect(first.page.headers.get('x-frame-options')).toBeNull();
    expect(first.page.text).not.toContain('eyJ'); // no token in the page
    expect(first.data.next).toBe(`/assistant?lti=${platformId(lms.issuer, lms.clientId)}`);
    const me = await h.get('/api/v1/auth/me', { token: first.session.access_token });
    expect(me.body.user?.display_name ?? me.body.display_name).toBe('Noor Haddad');
    expect(first.session.refresh_token).toEqual(expect.any(String));
    // The code is single use.
    expect((await h.post(`${LTI}/session`, { code: first.data.code })).status).toBe(401);
    // Coming back lands in the same account.
    const again = await launchAs({ sub: student, name: 'Noor Haddad' });
    expect(again.session.user.id ?? again.session.user._id).toBe(
      first.session.user.id ?? first.session.user._id,
    );
    // Another sub of the same email is another student (never matched by email).
    const other = await launchAs({ sub: sub(), name: 'Noor Haddad' });
    expect(other.session.user.id ?? other.session.user._id).not.toBe(
      first.session.user.id ?? first.session.user._id,
    );
  });

  it('lands an instructor on /teach for the course, whose learners fill the dashboard', async () => {
    const course = `course-${randomUUID().slice(0, 8)}`;
    const learner = await launchAs({ sub: sub(), name: 'Sami Ortiz', contextId: course });
    expect(learner.data.next).toMatch(/^\/assistant\?lti=/);
    const teacher = await launchAs({
      sub: sub(),
      name: 'Ms Rivera',
      contextId: course,
      roles: [ROLE.instructor],
    });
    const next = new URL(teacher.data.next, h.url);
    expect(next.pathname).toBe('/teach');
    const classId = next.searchParams.get('class')!;
    const token = teacher.session.access_token;
    const board = await h.get(`/api/v1/classes/${classId}/students`, { token });
    expect(board.status, board.text).toBe(200);
    expect(board.body.class).toMatchObject({ id: classId, name: 'Algebra 1', role: 'instructor' });
    expect(board.body.students.map((s: Loose) => s.name)).toEqual(['Sami Ortiz']);
    // The learner is no teacher of it.
    const asLearner = await h.get(`/api/v1/classes/${classId}/students`, {
      token: learner.session.access_token,
    });
    expect(asLearner.status).toBe(404);
  });

  it('opens the view asked for: custom ayah_view goals → /goal', async () => {
    const { data } = await launchAs({ sub: sub(), custom: { ayah_view: 'goals' } });
    expect(data.next).toMatch(/^\/goal\?lti=/);
  });

  it('lets the launched app page be framed by the platform, and no other page', async () => {
    const id = platformId(lms.issuer, lms.clientId);
    const framed = await fetch(`${h.url}/assistant?lti=${id}`);
    expect(framed.headers.get('content-security-policy')).toContain(
      `frame-ancestors ${lms.issuer}`,
    );
    expect(framed.headers.get('x-frame-options')).toBeNull();
    const plain = await fetch(`${h.url}/assistant`);
    expect(plain.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const unknown = await fetch(`${h.url}/assistant?lti=nobody`);
    expect(unknown.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  describe('refuses a forged or spent launch with a plain page and no session', () => {
    async function refused(
      make: (l: Login) => Promise<Record<string, string>>,
      reason: string,
      options: { cookie?: boolean } = {},
    ) {
      const l = await login();
      const fields = await make(l);
      const page = await launch(fields, options.cookie === false ? '' : l.cookie);
      expect(page.status, page.text).toBeGreaterThanOrEqual(400);
      expect(page.status).toBeLessThan(500);
      expect(page.text).toContain(reason.replace(/'/g, '&#39;').replace(/"/g, '&quot;'));
      expect(pageData(page.text)).toBeNull();
      if (fields.id_token) expect(page.text).not.toContain(fields.id_token.slice(0, 40));
      expect(page.text).not.toMatch(/at \w+ \(|node_modules/);
      return l;
    }
    const good = (l: Login, plan: Partial<LaunchPlan> = {}, options = {}) =>
      lms.idToken({ sub: sub(), ...plan }, l.nonce, options);

    it('unknown key', async () => {
      const stranger = await generateKeyPair('RS256');
      await refused(
        async (l) => ({
          id_token: await good(l, {}, { key: stranger.privateKey }),
          state: l.state,
        }),
        LTI_MESSAGES.signature,
      );
      const before = lms.jwksRequests;
      await refused(
        async (l) => ({
          id_token: await good(l, {}, { key: stranger.privateKey, kid: 'never-published' }),
          state: l.state,
        }),
        LTI_MESSAGES.signature,
      );
      // An unknown kid fetched the JWKS again (rate-limited: at most once).
      expect(lms.jwksRequests - before).toBeLessThanOrEqual(1);
    });

    it('other client id', async () => {
      await refused(
        async (l) => ({
          id_token: await good(l, { claims: { aud: 'other-client' } }),
          state: l.state,
        }),
        LTI_MESSAGES.unknownPlatform,
      );
      await refused(
        async (l) => ({
          id_token: await good(l, { claims: { aud: [lms.clientId, 'other'], azp: 'other' } }),
          state: l.state,
        }),
        LTI_MESSAGES.unknownPlatform,
      );
      await refused(
        async (l) => ({
          id_token: await good(l, { claims: { aud: [lms.clientId, 'other'] } }),
          state: l.state,
        }),
        LTI_MESSAGES.azp,
      );
    });

    it('unknown deployment', async () => {
      await refused(
        async (l) => ({
          id_token: await good(l, {
            claims: { 'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'elsewhere' },
          }),
          state: l.state,
        }),
        LTI_MESSAGES.deployment,
      );
    });

    it('expired', async () => {
      await refused(
        async (l) => ({ id_token: await good(l, {}, { iatOffset: -400 }), state: l.state }),
        LTI_MESSAGES.expired,
      );
    });

    it('other nonce', async () => {
      await refused(
        async (l) => ({
          id_token: await lms.idToken({ sub: sub() }, 'another-nonce'),
          state: l.state,
        }),
        LTI_MESSAGES.nonce,
      );
    });

    it('replayed id_token', async () => {
      const l = await login();
      const fields = { id_token: await good(l), state: l.state };
      expect((await launch(fields, l.cookie)).status).toBe(200);
      const replay = await launch(fields, l.cookie);
      expect(replay.status).toBe(401);
      expect(replay.text).toContain('already been used');
      expect(pageData(replay.text)).toBeNull();
    });

    it('version 1.1', async () => {
      await refused(
        async (l) => ({
          id_token: await good(l, {
            claims: { 'https://purl.imsglobal.org/spec/lti/claim/version': '1.1' },
          }),
          state: l.state,
        }),
        LTI_MESSAGES.version,
      );
    });

    it('bad state, and a state from another browser', async () => {
      await refused(
        async (l) => ({ id_token: await good(l), state: 'made-up-state' }),
        LTI_MESSAGES.state,
      );
      await refused(
        async (l) => ({ id_token: await good(l), state: l.state }),
        LTI_MESSAGES.browser,
        { cookie: false },
      );
    });

    it('an unknown message type, no id_token, a malformed one', async () => {
      await refused(
        async (l) => ({
          id_token: await good(l, {
            claims: {
              'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiStartProctoring',
            },
          }),
          state: l.state,
        }),
        LTI_MESSAGES.messageType,
      );
      await refused(async (l) => ({ state: l.state }), LTI_MESSAGES.noToken);
      await refused(
        async (l) => ({ id_token: 'not.a.jwt', state: l.state }),
        LTI_MESSAGES.malformed,
      );
    });
  });

  it('keeps state and nonce in platform storage when the login names lti_storage_target', async () => {
    const params = new URLSearchParams({
      iss: lms.issuer,
      login_hint: 'hint',
      target_link_uri: 'http://app.test/assistant',
      client_id: lms.clientId,
      lti_storage_target: '_parent',
    });
    const res = await fetch(`${h.url}${LTI}/login?${params}`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const data = pageData(await res.text())!;
    expect(data).toMatchObject({
      mode: 'login',
      storage: { target: '_parent', origin: lms.issuer },
    });
    const page = await launch({
      id_token: await lms.idToken({ sub: sub() }, data.nonce),
      state: data.state,
    });
    expect(page.status, page.text).toBe(200);
    const handoff = pageData(page.text)!;
    expect(handoff.storage).toMatchObject({ state: data.state, nonce: data.nonce });
    // Without the values the platform kept, the code buys nothing (and is spent).
    expect((await h.post(`${LTI}/session`, { code: handoff.code })).status).toBe(401);

    // With them (what the page reads back by lti.get_data), it buys the session.
    const again = pageData(await (await fetch(`${h.url}${LTI}/login?${params}`)).text());
    const second = pageData(
      (
        await launch({
          id_token: await lms.idToken({ sub: sub() }, again.nonce),
          state: again.state,
        })
      ).text,
    );
    const wrong = await h.post(`${LTI}/session`, {
      code: second.code,
      state: again.state,
      nonce: 'another',
    });
    expect(wrong.status).toBe(401);
    const third = await (async () => {
      const l = pageData(await (await fetch(`${h.url}${LTI}/login?${params}`)).text());
      const p = pageData(
        (await launch({ id_token: await lms.idToken({ sub: sub() }, l.nonce), state: l.state }))
          .text,
      );
      return h.post(`${LTI}/session`, { code: p.code, state: l.state, nonce: l.nonce });
    })();
    expect(third.status, third.text).toBe(200);
    expect(third.body.access_token).toEqual(expect.any(String));
  });

  it('posts the week’s average goal progress to the line item, retrying when the platform is down', async () => {
    const student = sub();
    const { session } = await launchAs({ sub: student, custom: { ayah_view: 'goals' } });
    const api = h.as(session.access_token);
    const a = (
      await api.post('/api/v1/goal', {
        subject: 'math',
        goal_type: 'problems_solved',
        target_value: 4,
      })
    ).body.goal;
    const b = (
      await api.post('/api/v1/goal', {
        subject: 'science',
        goal_type: 'problems_solved',
        target_value: 2,
      })
    ).body.goal;
    lms.failScores = 1;
    expect((await api.post(`/api/v1/goal/${a._id}/progress`, { value: 4 })).status).toBe(201);
    const mine = () => lms.scores.filter((s) => s.body.userId === student);
    await expect.poll(() => mine().at(-1)?.body.scoreGiven, { timeout: 15_000 }).toBe(50);
    expect(mine().at(-1)!.body).toMatchObject({
      scoreMaximum: 100,
      activityProgress: 'InProgress',
      gradingProgress: 'FullyGraded',
    });
    expect((await api.post(`/api/v1/goal/${b._id}/progress`, { value: 2 })).status).toBe(201);
    await expect.poll(() => mine().at(-1)?.body.scoreGiven, { timeout: 15_000 }).toBe(100);
    const last = mine().at(-1)!;
    expect(last.body.activityProgress).toBe('Completed');
    expect(last.lineItem).toMatch(/\/lineitems\/1$/);
    expect(last.contentType).toBe('application/vnd.ims.lis.v1.score+json');
    expect(last.userAgent).toMatch(/^Ayah-LTI/);
    expect(Date.parse(String(last.body.timestamp))).not.toBeNaN();
    expect(lms.tokenRequests.some((t) => t.scope.includes('lti-ags/scope/score'))).toBe(true);
  });

  it('finds or creates the line item when the claim gives only lineitems', async () => {
    const student = sub();
    const { session } = await launchAs({
      sub: student,
      resourceLinkId: `link-${student}`,
      ags: 'lineitems',
    });
    const api = h.as(session.access_token);
    const g = (
      await api.post('/api/v1/goal', {
        subject: 'math',
        goal_type: 'problems_solved',
        target_value: 2,
      })
    ).body.goal;
    await api.post(`/api/v1/goal/${g._id}/progress`, { value: 1 });
    await expect
      .poll(() => lms.scores.find((s) => s.body.userId === student)?.lineItem, { timeout: 15_000 })
      .toBeDefined();
    const made = [...lms.lineItems.values()].find((i) => i.resourceLinkId === `link-${student}`);
    expect(made).toMatchObject({ scoreMaximum: 100 });
    expect(lms.scores.find((s) => s.body.userId === student)!.lineItem).toBe(made!.id);
  });

  it('deep links: an instructor picks the goals board, the platform gets a signed content item', async () => {
    const l = await login();
    const page = await launch(
      {
        id_token: await lms.idToken(
          { sub: sub(), roles: [ROLE.instructor], messageType: 'LtiDeepLinkingRequest' },
          l.nonce,
        ),
        state: l.state,
      },
      l.cookie,
    );
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('Weekly goals');
    const code = /name="code" value="([^"]+)"/.exec(page.text)![1]!;
    const chosen = await fetch(`${h.url}${LTI}/deep-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code, view: 'goals' }),
    });
    const text = await chosen.text();
    expect(chosen.status, text).toBe(200);
    expect(chosen.headers.get('content-security-policy')).toContain(
      `form-action 'self' ${lms.issuer}`,
    );
    const action = /action="([^"]+)"/.exec(text)![1]!;
    const jwt = /name="JWT" value="([^"]+)"/.exec(text)![1]!;
    expect(action).toBe(`${lms.issuer}/deep-link-return`);
    const back = await fetch(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ JWT: jwt }),
    });
    expect(back.status).toBe(200);
    const response = lms.deepLinks.at(-1)!;
    expect(response['https://purl.imsglobal.org/spec/lti/claim/message_type']).toBe(
      'LtiDeepLinkingResponse',
    );
    expect(response['https://purl.imsglobal.org/spec/lti/claim/deployment_id']).toBe(
      lms.deploymentId,
    );
    expect(response['https://purl.imsglobal.org/spec/lti-dl/claim/data']).toBe(
      'opaque-platform-data',
    );
    expect(response['https://purl.imsglobal.org/spec/lti-dl/claim/content_items']).toEqual([
      expect.objectContaining({
        type: 'ltiResourceLink',
        title: 'Weekly goals',
        custom: { ayah_view: 'goals' },
        lineItem: expect.objectContaining({ scoreMaximum: 100 }),
      }),
    ]);
    // The request's code is spent.
    const again = await fetch(`${h.url}${LTI}/deep-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code, view: 'chat' }),
    });
    expect(again.status).toBe(401);
  });

  it('refuses a learner’s deep-linking request', async () => {
    const l = await login();
    const page = await launch(
      {
        id_token: await lms.idToken({ sub: sub(), messageType: 'LtiDeepLinkingRequest' }, l.nonce),
        state: l.state,
      },
      l.cookie,
    );
    expect(page.status).toBe(403);
    expect(page.text).toContain(LTI_MESSAGES.deepLinkRole);
  });

  it('reads the course roster by NRPS, every page', async () => {
    const course = `course-${randomUUID().slice(0, 6)}`;
    await launchAs({ sub: sub(), contextId: course });
    lms.members.push(
      { user_id: 'u1', name: 'Ada', roles: [ROLE.learner], status: 'Active' },
      { user_id: 'u2', name: 'Bo', email: 'bo@school.example', roles: [ROLE.learner] },
      { user_id: 't1', name: 'Ms Teach', roles: [ROLE.instructor] },
      { user_id: 'gone', roles: [ROLE.learner], status: 'Inactive' },
    );
    const lti = createLtiService({
      db: h.database.db,
      config: h.config,
      logger: h.logger,
      now: h.now,
      sessions: { startSession: () => Promise.reject(new Error('unused')) },
    });
    const members = await lti.readCourseMembers(`${lms.issuer}|${lms.clientId}|${course}`);
    expect(members).toEqual([
      { sub: 'u1', name: 'Ada', roles: [ROLE.learner] },
      { sub: 'u2', name: 'Bo', email: 'bo@school.example', roles: [ROLE.learner] },
      { sub: 't1', name: 'Ms Teach', roles: [ROLE.instructor] },
    ]);
    expect(await lti.readCourseMembers('nowhere|x|y')).toBeNull();
  });

  it('registers a platform by Dynamic Registration, which can then launch', async () => {
    const res = await fetch(
      `${h.url}${LTI}/register?openid_configuration=${encodeURIComponent(
        `${dynamic.issuer}/.well-known/openid-configuration`,
      )}&registration_token=reg-token`,
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(text).toContain('Ayah is registered');
    expect(dynamic.registrations.at(-1)).toMatchObject({
      initiate_login_uri: 'http://app.test/api/v1/lti/login',
      redirect_uris: ['http://app.test/api/v1/lti/launch'],
      jwks_uri: 'http://app.test/api/v1/lti/jwks',
      token_endpoint_auth_method: 'private_key_jwt',
    });
    const student = sub();
    const { session } = await launchAs({ sub: student }, dynamic);
    expect(session.access_token).toEqual(expect.any(String));
    // A wrong registration token is refused by the platform, and so the registration.
    const bad = await fetch(
      `${h.url}${LTI}/register?openid_configuration=${encodeURIComponent(
        `${dynamic.issuer}/.well-known/openid-configuration`,
      )}&registration_token=wrong`,
    );
    expect(bad.status).toBe(400);
  });
});

it('stops the start on a mistaken AYAH_LTI_PLATFORMS, naming the entry and the field', () => {
  const start = (value: string) => () =>
    loadConfig({ AYAH_DATA_DIR: h.dataDir || '/tmp/ayah-lti-config', AYAH_LTI_PLATFORMS: value });
  expect(start('nope')).toThrow(/AYAH_LTI_PLATFORMS .*not valid JSON/);
  expect(start('[{"issuer":"https://lms.example"}]')).toThrow(/entry 1 needs "client_id"/);
  const entry = {
    issuer: 'https://lms.example',
    client_id: 'c',
    deployment_ids: ['d'],
    auth_login_url: 'http://lms.example/auth',
    auth_token_url: 'https://lms.example/token',
    jwks_url: 'https://lms.example/jwks',
  };
  expect(start(JSON.stringify([entry]))).toThrow(/entry 1: "auth_login_url" must be an https URL/);
  expect(
    start(
      JSON.stringify([
        { ...entry, auth_login_url: 'https://lms.example/auth', deployment_ids: [] },
      ]),
    ),
  ).toThrow(/entry 1: "deployment_ids"/);
  expect(
    start(
      JSON.stringify([
        { ...entry, auth_login_url: 'https://lms.example/auth' },
        { ...entry, auth_login_url: 'https://lms.example/auth' },
      ]),
    ),
  ).toThrow(/entry 2 repeats the issuer/);
});

it('publishes two tool keys during a rotation, signs with the first; generates one 0600 key once', async () => {
  const pem = () =>
    generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ayah-lti-keys-'));
  try {
    const keys = loadLtiKeys(`${pem()}\n${pem()}`, dir);
    const jwks = await toolJwks(keys);
    expect(jwks.keys.map((k) => k.kid)).toEqual(keys.map((k) => k.kid));
    expect(new Set(jwks.keys.map((k) => k.kid)).size).toBe(2);
    const signed = await signAsTool(keys, { iss: 'x' }, new Date());
    expect(decodeProtectedHeader(signed)).toMatchObject({ alg: 'RS256', kid: keys[0]!.kid });
    const generated = loadLtiKeys(undefined, dir);
    expect(statSync(path.join(dir, 'lti-private-key.pem')).mode & 0o777).toBe(0o600);
    expect(loadLtiKeys(undefined, dir)[0]!.kid).toBe(generated[0]!.kid);
    expect(() => loadLtiKeys('not a key', dir)).toThrow(/AYAH_LTI_PRIVATE_KEY/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describeServer('LTI grades outbox', () => {
  /** A launched student's grade link and a score for it, as the outbox keeps one. */
  async function launchedWithScore(scoreGiven: number) {
    const student = sub();
    await launchAs({ sub: student, custom: { ayah_view: 'goals' } });
    const [link] = await h.sql<{ id: string }>(
      sql`SELECT id FROM lti_grade_links WHERE subject = ${student}`,
    );
    const score = {
      userId: student,
      scoreGiven,
      scoreMaximum: 100,
      activityProgress: 'InProgress',
      gradingProgress: 'FullyGraded',
      timestamp: new Date().toISOString(),
    };
    return { student, link: link!, score };
  }

  /** A score waiting in the outbox after 3 attempts, due in 30 minutes by the database's clock. */
  async function waitingInOutbox(linkId: string, score: object) {
    await h.sql(
      sql`INSERT INTO lti_score_outbox (grade_link_id, score, attempts, next_attempt_at)
          VALUES (${linkId}, ${JSON.stringify(score)}::jsonb, 3, now() + interval '30 minutes')`,
    );
  }

  /** Another server's LTI service on this file's database, with its own clock. */
  function ltiServiceAt(now: () => Date) {
    return createLtiService({
      db: h.database.db,
      config: h.config,
      logger: h.logger,
      now,
      sessions: { startSession: () => Promise.reject(new Error('unused')) },
    });
  }

  it('posts a score left waiting by a stopped server when a new one drains', async () => {
    const { student, link, score } = await launchedWithScore(42);
    // Due for the new server only: the live one (this file's) drains the same outbox on its own
    // timer, and could take the row and post it after the assertion below. The new server's clock is
    // an hour on, the row due in half an hour.
    await waitingInOutbox(link.id, score);
    const restarted = ltiServiceAt(() => new Date(h.now().getTime() + 3_600_000));
    await restarted.grades.drain();
    expect(lms.scores.find((s) => s.body.userId === student)?.body.scoreGiven).toBe(42);
    expect(
      await h.sql(sql`SELECT 1 FROM lti_score_outbox WHERE grade_link_id = ${link.id}`),
    ).toEqual([]);
  });
  it('a stopped outbox sets no retry and posts nothing more', async () => {
    const { student, link, score } = await launchedWithScore(17);
    // Due in 30 minutes for this file's live server (so it leaves the row alone), and 300 ms from
    // now on the clock of the service under test: its drain finds nothing due and sets a timer.
    await waitingInOutbox(link.id, score);
    const stopping = ltiServiceAt(() => new Date(Date.now() + 30 * 60_000 - 300));
    await stopping.grades.drain();
    await stopping.grades.stop();
    // Past the moment the retry was set for: a timer left behind would have posted the score.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await stopping.grades.drain();
    expect(lms.scores.find((s) => s.body.userId === student)).toBeUndefined();
    expect(
      await h.sql(sql`SELECT 1 FROM lti_score_outbox WHERE grade_link_id = ${link.id}`),
    ).toHaveLength(1);
  });
});
