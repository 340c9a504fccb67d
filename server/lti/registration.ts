/**
 * LTI Dynamic Registration 1.0: a platform's admin pastes Ayah's registration URL; the platform opens
 * it with `openid_configuration` and `registration_token`; Ayah reads the platform's configuration,
 * registers its client there, and keeps the platform (issuer, client id, deployment, endpoints).
 * Only with AYAH_LTI_DYNAMIC_REGISTRATION=1: whoever can reach the URL with a platform can add one.
 */
import { z } from '@hono/zod-openapi';

import type { LtiConfig } from './config';
import { defaultFrameOrigins, safeUrl } from './config';
import type { PlatformRegistry } from './platforms';
import { SCOPES } from './schemas';
import { LTI_PREFIX, LtiRefusal } from './service';
import { USER_AGENT } from './token';

const PLATFORM_CONFIG = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const TOOL_CONFIG = 'https://purl.imsglobal.org/spec/lti-tool-configuration';
const TIMEOUT_MS = 10_000;

export const REGISTRATION_MESSAGES = {
  disabled:
    'Dynamic registration is turned off on this Ayah server (AYAH_LTI_DYNAMIC_REGISTRATION).',
  configuration: 'The platform’s openid_configuration could not be read.',
  issuer: "The platform's configuration names an issuer that does not own its address.",
  registration: 'The platform refused to register Ayah.',
} as const;

const OpenIdConfiguration = z.object({
  issuer: z.string().min(1),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  jwks_uri: z.string(),
  registration_endpoint: z.string(),
  authorization_server: z.string().optional(),
  [PLATFORM_CONFIG]: z.object({ product_family_code: z.string().optional() }).loose().optional(),
});

const ClientResponse = z.object({
  client_id: z.string().min(1),
  [TOOL_CONFIG]: z.object({ deployment_id: z.string().optional() }).loose().optional(),
});

async function getJson(url: string, init: RequestInit = {}): Promise<unknown> {
  const response = await fetch(url, {
    ...init,
    headers: { accept: 'application/json', 'user-agent': USER_AGENT, ...init.headers },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`answered ${response.status}`);
  return response.json();
}

export async function register(
  input: { openidConfiguration?: string | undefined; registrationToken?: string | undefined },
  lti: LtiConfig,
  publicUrl: string,
  platforms: PlatformRegistry,
) {
  if (!lti.dynamicRegistration) throw new LtiRefusal(REGISTRATION_MESSAGES.disabled, 403);
  const configUrl = safeUrl(input.openidConfiguration);
  if (!configUrl) throw new LtiRefusal(REGISTRATION_MESSAGES.configuration);
  let configuration: z.infer<typeof OpenIdConfiguration>;
  try {
    configuration = OpenIdConfiguration.parse(await getJson(configUrl));
  } catch {
    throw new LtiRefusal(REGISTRATION_MESSAGES.configuration, 400);
  }
  // The issuer must own the configuration's address (Dynamic Registration §3.5.1).
  if (!configUrl.startsWith(configuration.issuer.replace(/\/+$/, '')))
    throw new LtiRefusal(REGISTRATION_MESSAGES.issuer);
  const endpoints = [
    configuration.authorization_endpoint,
    configuration.token_endpoint,
    configuration.jwks_uri,
    configuration.registration_endpoint,
  ].map(safeUrl);
  if (endpoints.some((url) => url === null))
    throw new LtiRefusal(REGISTRATION_MESSAGES.configuration);
  const [authLoginUrl, authTokenUrl, jwksUrl, registrationUrl] = endpoints as string[];
  const host = new URL(publicUrl).host;
  const client = {
    application_type: 'web',
    response_types: ['id_token'],
    grant_types: ['implicit', 'client_credentials'],
    initiate_login_uri: `${publicUrl}${LTI_PREFIX}/login`,
    redirect_uris: [`${publicUrl}${LTI_PREFIX}/launch`],
    client_name: 'Ayah',
    jwks_uri: `${publicUrl}${LTI_PREFIX}/jwks`,
    logo_uri: `${publicUrl}/favicon.svg`,
    token_endpoint_auth_method: 'private_key_jwt',
    scope: [SCOPES.score, SCOPES.lineItem, SCOPES.lineItemReadOnly, SCOPES.roster].join(' '),
    [TOOL_CONFIG]: {
      domain: host,
      target_link_uri: `${publicUrl}/assistant`,
      description: 'Ayah, the AI learning coach: a tutor chat and weekly learning goals.',
      claims: ['iss', 'sub', 'name', 'given_name', 'family_name'],
      messages: [
        {
          type: 'LtiResourceLinkRequest',
          label: 'Ayah tutor',
          custom_parameters: { ayah_view: 'chat' },
        },
        {
          type: 'LtiDeepLinkingRequest',
          label: 'Add Ayah',
          target_link_uri: `${publicUrl}/assistant`,
        },
      ],
    },
  };
  let registered: z.infer<typeof ClientResponse>;
  try {
    registered = ClientResponse.parse(
      await getJson(registrationUrl!, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(input.registrationToken && { authorization: `Bearer ${input.registrationToken}` }),
        },
        body: JSON.stringify(client),
      }),
    );
  } catch {
    throw new LtiRefusal(REGISTRATION_MESSAGES.registration, 400);
  }
  const deploymentId = registered[TOOL_CONFIG]?.deployment_id;
  await platforms.register({
    issuer: configuration.issuer,
    clientId: registered.client_id,
    deploymentIds: deploymentId ? [deploymentId] : [],
    authLoginUrl: authLoginUrl!,
    authTokenUrl: authTokenUrl!,
    jwksUrl: jwksUrl!,
    authAudience: configuration.authorization_server ?? null,
  });
  return {
    issuer: configuration.issuer,
    frameOrigins: defaultFrameOrigins(configuration.issuer, authLoginUrl!),
  };
}
