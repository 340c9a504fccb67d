/**
 * The learning half of the API, wired together: the tutor chat, learning memory, goals and the points
 * wallet. `app.ts` mounts what this answers under `/api/v1`.
 */
import type { MiddlewareHandler } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AuthEnv } from '../auth/guard';
import type { Deps } from '../deps';
import { goalRoutes } from '../goals/routes';
import { createLlmClient } from '../llm/model';
import type { LlmClient } from '../llm/model';
import { memoryRoutes } from '../memory/routes';
import { createMemoryService } from '../memory/service';
import { pointsRoutes } from '../points/routes';
import { chatRoutes } from './routes';
import { createChatService } from './service';
import { createTutor } from './tutor';
import type { SafetyAlerts } from './tutor';

/** `[path under /api/v1, router]` pairs. */
export function learningRoutes(
  deps: Deps,
  auth: MiddlewareHandler<AuthEnv>,
  alerts: SafetyAlerts,
  llm: LlmClient = createLlmClient(deps.config.llm),
): [string, OpenAPIHono<AuthEnv>][] {
  if (!llm.stream)
    deps.logger.info(
      '[chat] no AI model configured (AYAH_LLM_BASE_URL, AYAH_LLM_MODEL): the offline coach answers',
    );
  const goals = goalRoutes(deps, auth);
  const memory = createMemoryService(deps, llm);
  const chat = createChatService(deps);
  const tutor = createTutor(deps, { chat, goals: goals.service, memory, llm, alerts });
  return [
    ['/chat', chatRoutes(deps, auth, chat, tutor).app],
    ['/vector', memoryRoutes(memory, auth).app],
    ['/goal', goals.app],
    ['/web3-tokens', pointsRoutes(deps, auth).app],
  ];
}
