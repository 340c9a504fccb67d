/**
 * The signed-in context every domain's routes read (`c.get('auth')`), and the bearer-token guard
 * that sets it. The guard asks only for an authenticator (the auth domain's service, handed in by
 * server/app.ts), so no domain imports auth to know who is asking.
 */
import type { MiddlewareHandler } from 'hono';

import type { User } from '../db/schema';

export interface Authenticated {
  user: User;
  sessionId: string;
}

export interface AuthEnv {
  Variables: { auth: Authenticated };
}

/** The port the guard needs: the user and session behind an `Authorization` header, or a 401. */
export interface Authenticator {
  authenticate(header: string | undefined): Promise<Authenticated>;
}

export function requireAuth(service: Authenticator): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    c.set('auth', await service.authenticate(c.req.header('authorization')));
    await next();
  };
}
