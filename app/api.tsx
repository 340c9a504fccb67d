import type { Api } from 'ayah-coach';
import { createContext, type ReactNode, use } from 'react';

const ApiContext = createContext<Api | null>(null);

/** The one Api of the app (createHttpApi in main.tsx), for every page. */
export function ApiProvider({ api, children }: { api: Api; children: ReactNode }) {
  return <ApiContext value={api}>{children}</ApiContext>;
}

export function useApi(): Api {
  const api = use(ApiContext);
  if (!api) throw new Error('`useApi` must be used within `<ApiProvider>`');
  return api;
}
