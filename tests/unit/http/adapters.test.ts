import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { Api } from '../../../src/api';
import { createHttpApi } from '../../../src/http';
import { normalizeUser, resolveAvatarUrl } from '../../../src/http-user';
import { takeRedirectSignInState } from '../../../src/lib/sign-in-state';
import { json, startServer, type TestServer, wireUser } from './server';

let server: TestServer;
let api: Api;

// Every answer carries a user, so calls that normalise one have something to normalise.
const reply = { message: 'ok', access_token: 'tok', token_type: 'bearer', user: wireUser };

beforeAll(async () => {
  server = await startServer((_req, res) => json(res, 200, reply));
  api = createHttpApi({ baseURL: server.url, getToken: () => 'tok-1' });
});
afterAll(() => server.close());
afterEach(() => {
  server.reset();
});

const odd = 'a b/c';
const oddPath = 'a%20b%2Fc';
const send = { messages: [{ role: 'user' as const, content: 'Hi' }], sessionId: 's1' };

type Row = [name: string, call: (api: Api) => unknown, method: string, url: string, body?: unknown];

const rows: Row[] = [
  // auth
  [
    'auth.register',
    (a) =>
      a.auth.register({
        email: 'a@b.co',
        password: 'Passw0rd!',
        display_name: 'Ada',
        agreed_to_terms: true,
        agreed_to_privacy: true,
      }),
    'POST',
    '/api/v1/auth/register',
    {
      email: 'a@b.co',
      password: 'Passw0rd!',
      display_name: 'Ada',
      agreed_to_terms: true,
      agreed_to_privacy: true,
    },
  ],
  [
    'auth.login',
    (a) => a.auth.login({ email: 'a@b.co', password: 'pw' }),
    'POST',
    '/api/v1/auth/login',
    { email: 'a@b.co', password: 'pw' },
  ],
  ['auth.me', (a) => a.auth.me(), 'GET', '/api/v1/auth/me'],
  [
    'auth.verifyEmail',
    (a) => a.auth.verifyEmail({ token: 't1' }),
    'POST',
    '/api/v1/auth/verify-email',
    { token: 't1' },
  ],
  [
    'auth.exchangeSignInCode',
    (a) => a.auth.exchangeSignInCode({ code: 'c1', state: 's1' }),
    'POST',
    '/api/v1/auth/sign-in-code',
    { code: 'c1', state: 's1' },
  ],
  [
    'auth.resendVerification',
    (a) => a.auth.resendVerification({ email: 'a@b.co' }),
    'POST',
    '/api/v1/auth/resend-verification',
    { email: 'a@b.co' },
  ],
  [
    'auth.requestPasswordReset',
    (a) => a.auth.requestPasswordReset({ email: 'a@b.co' }),
    'POST',
    '/api/v1/auth/password-reset',
    { email: 'a@b.co' },
  ],
  [
    'auth.confirmPasswordReset',
    (a) => a.auth.confirmPasswordReset({ token: 't', new_password: 'N3w!pass' }),
    'POST',
    '/api/v1/auth/password-reset/confirm',
    { token: 't', new_password: 'N3w!pass' },
  ],
  [
    'auth.completeOnboarding',
    (a) => a.auth.completeOnboarding({ interests: ['math', 'science'] }),
    'POST',
    '/api/v1/auth/onboarding/complete',
    { interests: ['math', 'science'] },
  ],
  [
    'auth.refresh',
    (a) => a.auth.refresh({ refresh_token: 'r' }),
    'POST',
    '/api/v1/auth/refresh',
    { refresh_token: 'r' },
  ],
  [
    'auth.logout',
    (a) => a.auth.logout({ refresh_token: 'r' }),
    'POST',
    '/api/v1/auth/logout',
    { refresh_token: 'r' },
  ],
  ['auth.providers', (a) => a.auth.providers!(), 'GET', '/api/v1/auth/providers'],
  ['auth.legalPage', (a) => a.auth.legalPage!('terms'), 'GET', '/api/v1/legal/terms'],
  [
    'auth.web3Nonce',
    (a) => a.auth.web3Nonce({ wallet_address: '0xabc' }),
    'POST',
    '/api/v1/auth/web3/nonce',
    { wallet_address: '0xabc' },
  ],
  [
    'auth.web3Authenticate',
    (a) => a.auth.web3Authenticate({ wallet_address: '0xabc', signature: '0xsig', message: 'm' }),
    'POST',
    '/api/v1/auth/web3/authenticate',
    { wallet_address: '0xabc', signature: '0xsig', message: 'm' },
  ],
  // chat
  ['chat.send', (a) => a.chat.send(send), 'POST', '/api/v1/chat/send', send],
  ['chat.listSessions', (a) => a.chat.listSessions(), 'GET', '/api/v1/chat/sessions'],
  [
    'chat.listSessions paged',
    (a) => a.chat.listSessions({ limit: 10, page: 2 }),
    'GET',
    '/api/v1/chat/sessions?limit=10&page=2',
  ],
  ['chat.getSession', (a) => a.chat.getSession(odd), 'GET', `/api/v1/chat/sessions/${oddPath}`],
  [
    'chat.renameSession',
    (a) => a.chat.renameSession('s1', { title: 'Fractions' }),
    'PATCH',
    '/api/v1/chat/sessions/s1/title',
    { title: 'Fractions' },
  ],
  ['chat.deleteSession', (a) => a.chat.deleteSession('s1'), 'DELETE', '/api/v1/chat/sessions/s1'],
  [
    'chat.search',
    (a) => a.chat.search({ search: 'x & y' }),
    'GET',
    '/api/v1/chat/search?search=x+%26+y&limit=20&page=1',
  ],
  [
    'chat.search paged',
    (a) => a.chat.search({ search: 'z', limit: 5, page: 3 }),
    'GET',
    '/api/v1/chat/search?search=z&limit=5&page=3',
  ],
  [
    'chat.listArchived',
    (a) => a.chat.listArchived(),
    'GET',
    '/api/v1/chat/archives?limit=50&page=1',
  ],
  ['chat.archiveAll', (a) => a.chat.archiveAll(), 'PATCH', '/api/v1/chat/archives'],
  ['chat.deleteAll', (a) => a.chat.deleteAll(), 'DELETE', '/api/v1/chat/all'],
  [
    'chat.archiveSession',
    (a) => a.chat.archiveSession('s1'),
    'PATCH',
    '/api/v1/chat/sessions/s1/archive',
  ],
  [
    'chat.unarchiveSession',
    (a) => a.chat.unarchiveSession('s1'),
    'PATCH',
    '/api/v1/chat/sessions/s1/unarchive',
  ],
  [
    'chat.deleteArchivedSession',
    (a) => a.chat.deleteArchivedSession('s1'),
    'DELETE',
    '/api/v1/chat/sessions/s1/archive',
  ],
  // goals
  [
    'goals.create',
    (a) => a.goals.create({ subject: 'math', goal_type: 'problems_solved', target_value: 10 }),
    'POST',
    '/api/v1/goal',
    { subject: 'math', goal_type: 'problems_solved', target_value: 10 },
  ],
  ['goals.listCurrent', (a) => a.goals.listCurrent(), 'GET', '/api/v1/goal'],
  ['goals.listAll', (a) => a.goals.listAll(), 'GET', '/api/v1/goal/all'],
  [
    'goals.update',
    (a) => a.goals.update('g1', { target_value: 12 }),
    'PUT',
    '/api/v1/goal/g1',
    { target_value: 12 },
  ],
  ['goals.remove', (a) => a.goals.remove(odd), 'DELETE', `/api/v1/goal/${oddPath}`],
  [
    'goals.logProgress',
    (a) => a.goals.logProgress('g1', { value: 2, topic: 'Fractions', minutes: 15 }),
    'POST',
    '/api/v1/goal/g1/progress',
    { value: 2, topic: 'Fractions', minutes: 15 },
  ],
  [
    'goals.progressHistory',
    (a) => a.goals.progressHistory('g1'),
    'GET',
    '/api/v1/goal/g1/progress?limit=4&page=1',
  ],
  [
    'goals.progressHistory paged',
    (a) => a.goals.progressHistory('g1', { page: 2 }),
    'GET',
    '/api/v1/goal/g1/progress?limit=4&page=2',
  ],
  [
    'goals.activities',
    (a) => a.goals.activities(),
    'GET',
    '/api/v1/goal/activities?limit=5&page=1',
  ],
  [
    'goals.completedInWeek',
    (a) => a.goals.completedInWeek(),
    'GET',
    '/api/v1/goal/completed-in-week',
  ],
  ['goals.streak', (a) => a.goals.streak(), 'GET', '/api/v1/goal/streak'],
  ['goals.celebrations', (a) => a.goals.celebrations(), 'GET', '/api/v1/goal/celebrations'],
  // wallet
  [
    'wallet.conversionInfo',
    (a) => a.wallet.conversionInfo(),
    'GET',
    '/api/v1/web3-tokens/conversion-info',
  ],
  ['wallet.balance', (a) => a.wallet.balance(), 'GET', '/api/v1/web3-tokens/finu-balance'],
  [
    'wallet.convert',
    (a) => a.wallet.convert({ points: 120 }),
    'POST',
    '/api/v1/web3-tokens/convert-points-to-finu',
    { points: 120 },
  ],
  [
    'wallet.transaction',
    (a) => a.wallet.transaction('tx 1'),
    'GET',
    '/api/v1/web3-tokens/transaction/tx%201',
  ],
  ['wallet.activity', (a) => a.wallet.activity(), 'GET', '/api/v1/web3-tokens/activity'],
  [
    'wallet.activity paged',
    (a) => a.wallet.activity({ limit: 10, page: 1 }),
    'GET',
    '/api/v1/web3-tokens/activity?limit=10&page=1',
  ],
  [
    'wallet.distributionBalances',
    (a) => a.wallet.distributionBalances(),
    'GET',
    '/api/v1/web3-tokens/distribution-balances',
  ],
  // settings
  [
    'settings.updateProfile',
    (a) => a.settings.updateProfile({ display_name: 'Ada L', bio: 'Maths' }),
    'PUT',
    '/api/v1/auth/profile',
    { display_name: 'Ada L', bio: 'Maths' },
  ],
  [
    'settings.changePassword',
    (a) => a.settings.changePassword({ current_password: 'old', new_password: 'N3w!pass' }),
    'POST',
    '/api/v1/auth/change-password',
    { current_password: 'old', new_password: 'N3w!pass' },
  ],
  [
    'settings.listArchived',
    (a) => a.settings.listArchived(),
    'GET',
    '/api/v1/chat/archives?limit=50&page=1',
  ],
  [
    'settings.listArchived paged',
    (a) => a.settings.listArchived({ page: 2 }),
    'GET',
    '/api/v1/chat/archives?limit=50&page=2',
  ],
  [
    'settings.unarchiveSession',
    (a) => a.settings.unarchiveSession('s1'),
    'PATCH',
    '/api/v1/chat/sessions/s1/unarchive',
  ],
  [
    'settings.deleteArchivedSession',
    (a) => a.settings.deleteArchivedSession('s1'),
    'DELETE',
    '/api/v1/chat/sessions/s1/archive',
  ],
  ['settings.archiveAll', (a) => a.settings.archiveAll(), 'PATCH', '/api/v1/chat/archives'],
  ['settings.deleteAll', (a) => a.settings.deleteAll(), 'DELETE', '/api/v1/chat/all'],
  ['settings.exportData', (a) => a.settings.exportData(), 'GET', '/api/v1/auth/export'],
  [
    'settings.deleteAccount',
    (a) => a.settings.deleteAccount({ confirm: 'ada@example.com' }),
    'DELETE',
    '/api/v1/auth/account',
    { confirm: 'ada@example.com' },
  ],
  // teacher
  ['teacher.classes', (a) => a.teacher.classes(), 'GET', '/api/v1/classes'],
  [
    'teacher.dashboard',
    (a) => a.teacher.dashboard(odd),
    'GET',
    `/api/v1/classes/${oddPath}/students`,
  ],
  ['teacher.alerts', (a) => a.teacher.alerts({}), 'GET', '/api/v1/alerts'],
  [
    'teacher.alerts of a class',
    (a) => a.teacher.alerts({ classId: 'c1' }),
    'GET',
    '/api/v1/alerts?class_id=c1',
  ],
  ['teacher.unreadAlerts', (a) => a.teacher.unreadAlerts(), 'GET', '/api/v1/alerts/unread'],
  ['teacher.alert', (a) => a.teacher.alert(odd), 'GET', `/api/v1/alerts/${oddPath}`],
  [
    'teacher.acknowledge',
    (a) => a.teacher.acknowledge('a1'),
    'POST',
    '/api/v1/alerts/a1/acknowledge',
  ],
  [
    'teacher.resolve',
    (a) => a.teacher.resolve('a1', 'Talked with them'),
    'POST',
    '/api/v1/alerts/a1/resolve',
    { note: 'Talked with them' },
  ],
  [
    'teacher.markFalsePositive',
    (a) => a.teacher.markFalsePositive('a1', 'A quote from a book'),
    'POST',
    '/api/v1/alerts/a1/false-positive',
    { note: 'A quote from a book' },
  ],
];

describe('every adapter call reaches its method and path with its body', () => {
  it.each(rows)('%s', async (_name, call, method, url, body) => {
    await call(api);
    expect(server.received).toHaveLength(1);
    const [seen] = server.received;
    expect(seen?.method).toBe(method);
    expect(seen?.url).toBe(url);
    expect(seen?.headers.authorization).toBe('Bearer tok-1');
    if (body === undefined) {
      expect(seen?.body.length).toBe(0);
    } else {
      expect(seen?.headers['content-type']).toBe('application/json');
      expect(JSON.parse(seen?.body.toString('utf8') ?? '')).toEqual(body);
    }
  });

  it('covers every method of every adapter', () => {
    const covered = new Set(rows.map(([name]) => name.split(' ')[0]));
    covered.add('auth.googleLoginUrl');
    covered.add('chat.sendStream');
    covered.add('settings.uploadAvatar');
    const all = Object.entries(api).flatMap(([feature, adapter]) =>
      Object.keys(adapter as object).map((method) => `${feature}.${method}`),
    );
    expect(all.filter((name) => !covered.has(name))).toEqual([]);
  });
});

describe('answers', () => {
  it('resolves with the JSON answer as sent', async () => {
    const page = { sessions: [], total: 0, page: 1, limit: 20, hasMore: false };
    server.handle((_req, res) => json(res, 200, page));
    await expect(api.chat.search({ search: 'x' })).resolves.toEqual(page);
    server.handle((_req, res) => json(res, 200, [{ goal_id: 'g1', milestone: 25 }]));
    await expect(api.goals.celebrations()).resolves.toEqual([{ goal_id: 'g1', milestone: 25 }]);
  });

  it('makes every answered avatar absolute against the API host', async () => {
    server.handle((_req, res) => json(res, 200, reply));
    const absolute = `${server.url}/api/v1/auth/avatars/u1.png`;
    const calls = [
      api.auth.me(),
      api.auth.login({ email: 'a@b.co', password: 'pw' }),
      api.auth.verifyEmail({ token: 't' }),
      api.auth.completeOnboarding({ interests: [] }),
      api.auth.web3Authenticate({ wallet_address: '0x', signature: '0x', message: 'm' }),
      api.settings.updateProfile({ display_name: 'A', bio: '' }),
      api.settings.uploadAvatar(new Blob(['x'], { type: 'image/png' })),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.user.profile.avatar_url).toBe(absolute);
    }
    const registered = await api.auth.register({
      email: 'a@b.co',
      password: 'p',
      display_name: 'A',
      agreed_to_terms: true,
      agreed_to_privacy: true,
    });
    expect(registered).toMatchObject({
      message: 'ok',
      user: { profile: { avatar_url: absolute } },
    });
  });

  it('builds the Google sign-in URL without fetching, with a one-time value this tab keeps', () => {
    const url = new URL(api.auth.googleLoginUrl());
    expect(`${url.origin}${url.pathname}`).toBe(`${server.url}/api/v1/auth/google/login`);
    expect(url.searchParams.get('client_state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Kept in sessionStorage where there is one (the component tests read it back); none here.
    expect(takeRedirectSignInState()).toBe(
      globalThis.sessionStorage ? url.searchParams.get('client_state') : null,
    );
    const slashed = createHttpApi({ baseURL: `${server.url}/`, getToken: () => null });
    expect(slashed.auth.googleLoginUrl()).toMatch(
      new RegExp(`^${server.url}/api/v1/auth/google/login\\?client_state=`),
    );
    // Each sign-in its own value.
    expect(api.auth.googleLoginUrl()).not.toBe(url.toString());
    expect(server.received).toHaveLength(0);
  });
});

describe('the avatar upload', () => {
  it('arrives as multipart with the image in field `file`', async () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
    const file = new File([bytes], 'me.png', { type: 'image/png' });
    await api.settings.uploadAvatar(file);
    const [seen] = server.received;
    expect(seen?.method).toBe('POST');
    expect(seen?.url).toBe('/api/v1/auth/profile/upload-avatar');
    expect(seen?.headers.authorization).toBe('Bearer tok-1');
    const contentType = seen?.headers['content-type'] ?? '';
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = await new Response(new Uint8Array(seen?.body ?? []), {
      headers: { 'content-type': contentType },
    }).formData();
    expect([...form.keys()]).toEqual(['file']);
    const sent = form.get('file') as File;
    expect(sent.name).toBe('me.png');
    expect(sent.type).toBe('image/png');
    expect(new Uint8Array(await sent.arrayBuffer())).toEqual(bytes);
  });

  it('names a bare Blob', async () => {
    await api.settings.uploadAvatar(new Blob(['x'], { type: 'image/jpeg' }));
    const [seen] = server.received;
    const form = await new Response(new Uint8Array(seen?.body ?? []), {
      headers: { 'content-type': seen?.headers['content-type'] ?? '' },
    }).formData();
    expect((form.get('file') as File).name).toBe('avatar');
  });
});

describe('user normalising', () => {
  it('prefixes relative avatar paths and keeps URLs', () => {
    const host = 'https://api.example.org/';
    expect(resolveAvatarUrl('/api/v1/a.png', host)).toBe('https://api.example.org/api/v1/a.png');
    expect(resolveAvatarUrl('api/v1/a.png', host)).toBe('https://api.example.org/api/v1/a.png');
    expect(resolveAvatarUrl('/api/v1/a.png', '')).toBe('/api/v1/a.png');
    expect(resolveAvatarUrl('https://cdn.example.org/a.png', host)).toBe(
      'https://cdn.example.org/a.png',
    );
    expect(resolveAvatarUrl('data:image/png;base64,AA', host)).toBe('data:image/png;base64,AA');
    expect(resolveAvatarUrl('//cdn.example.org/a.png', host)).toBe('//cdn.example.org/a.png');
    expect(resolveAvatarUrl(null, host)).toBeNull();
    expect(resolveAvatarUrl('', host)).toBeNull();
  });

  it('falls back to subscription, then free, and tier to free', () => {
    const base = { ...wireUser, subscription_type: '', tier: '' };
    expect(normalizeUser({ ...base, subscription: 'premium' } as typeof base, '')).toMatchObject({
      subscription_type: 'premium',
      tier: 'free',
    });
    expect(normalizeUser(base, '')).toMatchObject({ subscription_type: 'free', tier: 'free' });
    expect(normalizeUser({ ...wireUser, tier: 'pro' }, '')).toMatchObject({
      subscription_type: 'free',
      tier: 'pro',
    });
  });
});
