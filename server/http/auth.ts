/** The bearer-token guard every signed-in route uses (here and in the other features). */
import type { MiddlewareHandler } from 'hono';
import type { AuthService, Authenticated } from '../auth/service';

export interface AuthEnv {
  Variables: { auth: Authenticated };
}

export function requireAuth(service: AuthService): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    c.set('auth', await service.authenticate(c.req.header('authorization')));
    await next();
  };
}
