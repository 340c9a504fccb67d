/**
 * The password length boundary over HTTP, where a student meets it: 7 characters are refused and 8
 * accepted, counted in characters (code points), on registration and on a password change. (A test
 * that stops at 4 characters would let the minimum slip to 6 unnoticed.)
 */
import { expect, it } from 'vitest';

import { describeServer, useTestServer } from '../harness';

const h = useTestServer();
const TOO_SHORT = {
  loc: ['body', 'password'],
  msg: 'Password does not meet requirements: At least 8 characters',
  type: 'value_error',
};

describeServer('the 8-character minimum', () => {
  it('refuses 7 characters and accepts 8 at registration', async () => {
    for (const password of ['Kq7!mzw', 'Kq7!mz😀']) {
      const { reply } = await h.register({ password });
      expect(reply.status, password).toBe(422);
      expect(reply.body.detail).toEqual([TOO_SHORT]);
    }
    // 8 characters, one of them an emoji that is two UTF-16 units (9 units in all).
    for (const password of ['Kq7!mzwv', 'Kq7!mzw😀']) {
      const { reply } = await h.register({ password });
      expect(reply.status, password).toBe(201);
    }
  });

  it('holds the same boundary when a signed-in student changes the password', async () => {
    const user = await h.signedInUser();
    const change = (new_password: string) =>
      h.post(
        '/api/v1/auth/change-password',
        { current_password: user.password, new_password },
        { token: user.access_token },
      );
    const short = await change('Zr4#tqp');
    expect(short.status).toBe(422);
    expect(short.body.detail).toEqual([{ ...TOO_SHORT, loc: ['body', 'new_password'] }]);
    const ok = await change('Zr4#tqpx');
    expect(ok.status, ok.text).toBe(200);
    const login = await h.post('/api/v1/auth/login', { email: user.email, password: 'Zr4#tqpx' });
    expect(login.status).toBe(200);
  });
});
