import type { HttpClient } from '../http-client';
import { GOALS } from '../lib/limits';
import type { GoalsAdapter } from './goals.adapter';

const GOAL = '/api/v1/goal';
const id = encodeURIComponent;

/** The goals adapter over HTTP. An update is sent as PUT (DECISIONS.md). */
export function goalsHttp(client: HttpClient): GoalsAdapter {
  return {
    create: (body, { signal } = {}) => client.request(GOAL, { method: 'POST', body, signal }),
    listCurrent: ({ signal } = {}) => client.request(GOAL, { signal }),
    listAll: ({ signal } = {}) => client.request(`${GOAL}/all`, { signal }),
    update: (goalId, body, { signal } = {}) =>
      client.request(`${GOAL}/${id(goalId)}`, { method: 'PUT', body, signal }),
    remove: (goalId, { signal } = {}) =>
      client.request(`${GOAL}/${id(goalId)}`, { method: 'DELETE', signal }),
    logProgress: (goalId, body, { signal } = {}) =>
      client.request(`${GOAL}/${id(goalId)}/progress`, { method: 'POST', body, signal }),
    progressHistory: (goalId, { limit = GOALS.progressPageSize, page = 1 } = {}, { signal } = {}) =>
      client.request(`${GOAL}/${id(goalId)}/progress`, { query: { limit, page }, signal }),
    activities: ({ limit = GOALS.recentActivityLimit, page = 1 } = {}, { signal } = {}) =>
      client.request(`${GOAL}/activities`, { query: { limit, page }, signal }),
    completedInWeek: ({ signal } = {}) => client.request(`${GOAL}/completed-in-week`, { signal }),
    streak: ({ signal } = {}) => client.request(`${GOAL}/streak`, { signal }),
    celebrations: ({ signal } = {}) => client.request(`${GOAL}/celebrations`, { signal }),
  };
}
