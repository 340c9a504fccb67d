/** LTI 1.3 claim names and the shapes Ayah reads from them (LTI Core, Deep Linking 2.0, AGS, NRPS). */
import { z } from '@hono/zod-openapi';

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
export const CLAIMS = {
  messageType: `${LTI}message_type`,
  version: `${LTI}version`,
  deploymentId: `${LTI}deployment_id`,
  targetLinkUri: `${LTI}target_link_uri`,
  resourceLink: `${LTI}resource_link`,
  roles: `${LTI}roles`,
  context: `${LTI}context`,
  custom: `${LTI}custom`,
  ags: 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint',
  nrps: 'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice',
  deepLinkingSettings: 'https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings',
  contentItems: 'https://purl.imsglobal.org/spec/lti-dl/claim/content_items',
  data: 'https://purl.imsglobal.org/spec/lti-dl/claim/data',
} as const;

export const SCOPES = {
  score: 'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  lineItem: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem',
  lineItemReadOnly: 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly',
  roster: 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
} as const;

export const MESSAGE_TYPES = ['LtiResourceLinkRequest', 'LtiDeepLinkingRequest'] as const;

const url = z.string().url().max(2048);

export const ContextClaim = z.object({
  id: z.string().min(1).max(255),
  title: z.string().max(1000).optional(),
  label: z.string().max(1000).optional(),
});

export const AgsClaim = z.object({
  scope: z.array(z.string()).default([]),
  lineitems: url.optional(),
  lineitem: url.optional(),
});

export const NrpsClaim = z.object({
  context_memberships_url: url,
  service_versions: z.array(z.string()).default(['2.0']),
});

export const DeepLinkingSettings = z.object({
  deep_link_return_url: url,
  accept_types: z.array(z.string()).default([]),
  data: z.string().max(4096).optional(),
});

export const ResourceLinkClaim = z.object({ id: z.string().min(1).max(255) });

/** `POST /lti/session`: the launched page's one-time code, and from platform storage its proof. */
export const SessionBody = z.strictObject({
  code: z.string().min(1).max(200),
  state: z.string().max(200).optional(),
  nonce: z.string().max(200).optional(),
});

/** An NRPS member as Ayah keeps it. */
export interface CourseMember {
  sub: string;
  name?: string;
  email?: string;
  roles: string[];
}

export const MembershipContainer = z.object({
  members: z
    .array(
      z.object({
        user_id: z.string(),
        name: z.string().optional(),
        email: z.string().optional(),
        roles: z.array(z.string()).default([]),
        status: z.string().optional(),
      }),
    )
    .default([]),
});

export type LtiRole = 'learner' | 'instructor' | 'administrator';

/** The strongest of the roles: Administrator > Instructor (a TA too) > Learner. */
export function roleOf(roles: unknown): LtiRole {
  const list = Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : [];
  if (list.some((r) => /#Administrator$/.test(r) || r === 'Administrator')) return 'administrator';
  if (list.some((r) => /membership#Instructor$|membership\/Instructor#|^Instructor$/.test(r)))
    return 'instructor';
  return 'learner';
}
