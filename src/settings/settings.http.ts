import type { HttpClient } from '../http-client';
import { withNormalizedUser } from '../http-user';
import type { ArchiveAdapter, UserResponse } from '../wire';
import type { SettingsAdapter } from './settings.adapter';

const AUTH = '/api/v1/auth';

/** The settings adapter over HTTP. Data Controls are `archive`, the chat archive calls. */
export function settingsHttp(client: HttpClient, archive: ArchiveAdapter): SettingsAdapter {
  const withUser = (answer: Promise<UserResponse>) => withNormalizedUser(answer, client.baseURL);

  return {
    updateProfile: (body, { signal } = {}) =>
      withUser(client.request(`${AUTH}/profile`, { method: 'PUT', body, signal })),
    uploadAvatar: (file, { signal } = {}) => {
      const form = new FormData();
      form.append('file', file, file instanceof File ? file.name : 'avatar');
      return withUser(
        client.request(`${AUTH}/profile/upload-avatar`, { method: 'POST', body: form, signal }),
      );
    },
    changePassword: (body, { signal } = {}) =>
      client.request(`${AUTH}/change-password`, { method: 'POST', body, signal }),
    exportData: ({ signal } = {}) => client.request(`${AUTH}/export`, { signal }),
    deleteAccount: (body, { signal } = {}) =>
      client.request(`${AUTH}/account`, { method: 'DELETE', body, signal }),
    ...archive,
  };
}
