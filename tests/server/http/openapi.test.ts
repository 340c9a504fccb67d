/** The OpenAPI document is good enough to generate a portal's client from. */
import { expect, it } from 'vitest';

import { describeServer, useTestServer } from '../harness';

const h = useTestServer();

type Operation = { operationId?: string; security?: unknown[] };

describeServer('OpenAPI document', () => {
  it('names every operation once, declares the bearer scheme globally and sets servers', async () => {
    const { body: doc } = await h.get('/api/v1/openapi.json');
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://app.test' })]);
    expect(doc.security).toEqual([{ Bearer: [] }]);
    expect(doc.components.securitySchemes.Bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations = Object.values(
      doc.paths as Record<string, Record<string, Operation>>,
    ).flatMap((methods) => Object.values(methods));
    const ids = operations.map((op) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/v1/chat/sessions/{id}/title'].patch.operationId).toBe(
      'patchChatSessionsByIdTitle',
    );
  });

  it('marks public routes `security: []` and keeps the rest behind the token', async () => {
    const { body: doc } = await h.get('/api/v1/openapi.json');
    expect(doc.paths['/api/v1/health'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/auth/register'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/auth/me'].get.security).toEqual([{ Bearer: [] }]);
    expect(doc.paths['/api/v1/goal/'] ?? doc.paths['/api/v1/goal']).toBeDefined();
  });
});
