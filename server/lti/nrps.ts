/**
 * The course roster (LTI NRPS 2.0): the members of a course as its platform lists them, through the
 * `namesroleservice` claim the course's last launch carried, every page (`Link: rel="next"`).
 */
import { eq } from 'drizzle-orm';

import type { Db } from '../db';
import { ltiContexts } from '../db/schema';
import type { PlatformRegistry } from './platforms';
import type { CourseMember } from './schemas';
import { MembershipContainer, SCOPES } from './schemas';
import type { TokenSource } from './token';
import { PlatformCallError } from './token';

const MEMBERSHIP_TYPE = 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json';
const MAX_PAGES = 50;

function nextLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(part);
    if (match) return match[1]!;
  }
  return null;
}

export function createRoster(db: Db, platforms: PlatformRegistry, tokens: TokenSource) {
  return {
    /** The members of a course (`${issuer}|${client_id}|${context_id}`); null for a course unknown or without NRPS. */
    async readCourseMembers(contextKey: string): Promise<CourseMember[] | null> {
      const [course] = await db.select().from(ltiContexts).where(eq(ltiContexts.key, contextKey));
      if (!course?.nrps) return null;
      const platform = await platforms.byId(course.platformId);
      if (!platform) return null;
      const members: CourseMember[] = [];
      let url: string | null = course.nrps.context_memberships_url;
      for (let page = 0; url && page < MAX_PAGES; page++) {
        const response = await tokens.call(platform, [SCOPES.roster], url, {
          accept: MEMBERSHIP_TYPE,
        });
        if (!response.ok)
          throw new PlatformCallError(`the roster answered ${response.status}`, response.status);
        const body = MembershipContainer.parse(await response.json());
        for (const m of body.members) {
          if (m.status && m.status !== 'Active') continue;
          members.push({
            sub: m.user_id,
            ...(m.name && { name: m.name }),
            ...(m.email && { email: m.email }),
            roles: m.roles,
          });
        }
        url = nextLink(response.headers.get('link'));
      }
      return members;
    },
  };
}
