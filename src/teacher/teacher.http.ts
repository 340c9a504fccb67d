import type { HttpClient } from '../http-client';
import type { TeacherAdapter } from './teacher.adapter';

const CLASSES = '/api/v1/classes';
const ALERTS = '/api/v1/alerts';
const id = encodeURIComponent;

/** The teacher's adapter over HTTP. */
export function teacherHttp(client: HttpClient): TeacherAdapter {
  return {
    classes: ({ signal } = {}) => client.request(CLASSES, { signal }),
    dashboard: (classId, { signal } = {}) =>
      client.request(`${CLASSES}/${id(classId)}/students`, { signal }),
    alerts: ({ classId }, { signal } = {}) =>
      client.request(ALERTS, { query: classId ? { class_id: classId } : {}, signal }),
    unreadAlerts: ({ signal } = {}) => client.request(`${ALERTS}/unread`, { signal }),
    alert: (alertId, { signal } = {}) => client.request(`${ALERTS}/${id(alertId)}`, { signal }),
    acknowledge: (alertId, { signal } = {}) =>
      client.request(`${ALERTS}/${id(alertId)}/acknowledge`, { method: 'POST', signal }),
    resolve: (alertId, note, { signal } = {}) =>
      client.request(`${ALERTS}/${id(alertId)}/resolve`, {
        method: 'POST',
        body: { note },
        signal,
      }),
    markFalsePositive: (alertId, note, { signal } = {}) =>
      client.request(`${ALERTS}/${id(alertId)}/false-positive`, {
        method: 'POST',
        body: note ? { note } : {},
        signal,
      }),
  };
}
