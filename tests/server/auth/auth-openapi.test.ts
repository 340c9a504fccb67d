/** The OpenAPI document describes the avatar, Google and wallet routes from the schemas that check them. */
import { expect, it } from 'vitest';

import { describeServer, useTestServer } from '../harness';

const h = useTestServer();

describeServer('OpenAPI: avatar, Google and wallet sign-in', () => {
  it('lists every route with its answers and request schemas', async () => {
    const { body: doc } = await h.get('/api/v1/openapi.json');
    const paths = doc.paths;
    const answers = (path: string, method: string) =>
      Object.keys(paths[`/api/v1/auth${path}`][method].responses);
    expect(answers('/profile/upload-avatar', 'post')).toEqual(
      expect.arrayContaining(['200', '401', '413', '415', '422']),
    );
    expect(answers('/avatars/{user_id}/{etag}', 'get')).toEqual(
      expect.arrayContaining(['200', '304', '404']),
    );
    expect(answers('/google/login', 'get')).toEqual(expect.arrayContaining(['302', '503']));
    expect(answers('/google/callback', 'get')).toEqual(expect.arrayContaining(['302', '503']));
    expect(answers('/web3/nonce', 'post')).toEqual(expect.arrayContaining(['200', '422']));
    expect(answers('/web3/nonce', 'get')).toEqual(expect.arrayContaining(['200', '422']));
    expect(answers('/web3/authenticate', 'post')).toEqual(
      expect.arrayContaining(['200', '401', '422']),
    );

    const upload = paths['/api/v1/auth/profile/upload-avatar'].post;
    expect(upload.security).toEqual([{ Bearer: [] }]);
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    const schemas = doc.components.schemas;
    expect(schemas.AvatarUpload.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(schemas.AvatarUpload.required).toEqual(['file']);
    expect(schemas.Web3AuthenticateRequest.required).toEqual(
      expect.arrayContaining(['wallet_address', 'signature', 'message']),
    );
    expect(schemas.Web3AuthenticateRequest.additionalProperties).toBe(false);
    expect(schemas.Web3NonceRequest.properties.wallet_address.pattern).toBe('^0x[0-9a-fA-F]{40}$');
    const callbackParams = paths['/api/v1/auth/google/callback'].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
    expect(callbackParams).toEqual(
      expect.arrayContaining(['query:code', 'query:state', 'query:error']),
    );
    const avatarParams = paths['/api/v1/auth/avatars/{user_id}/{etag}'].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
    expect(avatarParams).toEqual(['path:user_id', 'path:etag']);
  });
});
