/**
 * Avatars: an image recognised by its bytes (never by its name or the client's content type), kept in
 * the database (the server is stateless apart from it, so any instance can serve any avatar) and served
 * under a URL that names the SHA-256 of the bytes, so it can be cached forever.
 *
 * What is stored is never the upload itself: sharp decodes it and encodes a new image of the same type
 * (at most 1024 px a side, turned upright by its EXIF orientation), which drops every piece of metadata
 * (EXIF with the GPS position of a phone photo, XMP, comments) and whatever was appended after the
 * image (a polyglot: a script or a zip behind a valid JPEG). An upload that does not decode is refused
 * like any other non-image.
 *
 * Image bombs (issue 22 #8): the headers are read first and an image whose pixels × frames exceed
 * MAX_INPUT_PIXELS is refused before anything is decoded; only the first frame of an animation is
 * decoded and stored (a 194 kB GIF of 1,000 frames cost 2 s of CPU); and image work takes a place in
 * image-work.ts (two at a time per process, a short queue, then 503).
 */
import { createHash } from 'node:crypto';

import { AVATAR } from 'ayah-coach/rules';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';

import { transaction } from '../../db';
import type { User } from '../../db/schema';
import { avatars, users } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../http/errors';
import { imageWork } from './image-work';

export const AVATAR_MAX_BYTES = AVATAR.maxBytes;
/** The whole multipart request may carry this much besides the image (boundaries, headers, name). */
export const AVATAR_MAX_REQUEST_BYTES = AVATAR_MAX_BYTES + 64 * 1024;

export const AVATAR_MESSAGES = {
  tooLarge: 'The image must be under 5 MB',
  tooManyPixels: 'The image has too many pixels or frames',
  notAnImage: 'The file must be a PNG, JPEG, WebP or GIF image',
} as const;

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif';

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  bytes.length >= start + text.length &&
  [...text].every((ch, i) => bytes[start + i] === ch.charCodeAt(0));

/** The image type by its magic number, or null: a `.png` that is really HTML, SVG or text is null. */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length > png.length && png.every((b, i) => bytes[i] === b)) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'image/jpeg';
  }
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP') && bytes.length > 12) return 'image/webp';
  if ((ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) && bytes.length > 6) {
    return 'image/gif';
  }
  return null;
}

/** The longest side of a stored avatar; larger uploads are scaled down. */
export const AVATAR_MAX_SIDE = 1024;
/**
 * Refuse decompression bombs: an image whose pixels, counted over every frame, exceed this (e.g.
 * 8000 × 6250, or 200 frames of 500 × 500) is refused from its headers.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/**
 * The image decoded and encoded anew in its own format, with no metadata and nothing after it; only
 * the first frame of an animation. Null when it does not decode; 413 when its pixels × frames are
 * over MAX_INPUT_PIXELS (read from the headers, before decoding).
 */
export async function reencodeImage(bytes: Buffer, type: ImageType): Promise<Buffer | null> {
  let pixels: number;
  try {
    const { width, height, pageHeight, pages } = await sharp(bytes, {
      failOn: 'error',
      limitInputPixels: MAX_INPUT_PIXELS,
    }).metadata();
    pixels = (width ?? 0) * (pageHeight ?? height ?? 0) * Math.max(1, pages ?? 1);
  } catch {
    return null;
  }
  if (pixels > MAX_INPUT_PIXELS) throw new AppError(413, AVATAR_MESSAGES.tooManyPixels);
  try {
    // `pages: 1`: the first frame alone is decoded, however many follow.
    let image = sharp(bytes, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, pages: 1 });
    // EXIF orientation is applied before the EXIF goes.
    image = image.rotate();
    image = image.resize({
      width: AVATAR_MAX_SIDE,
      height: AVATAR_MAX_SIDE,
      fit: 'inside',
      withoutEnlargement: true,
    });
    // sharp writes no metadata unless asked to (keepMetadata / withExif are never called).
    switch (type) {
      case 'image/png':
        return await image.png({ compressionLevel: 9 }).toBuffer();
      case 'image/jpeg':
        return await image.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
      case 'image/webp':
        return await image.webp({ quality: 85 }).toBuffer();
      case 'image/gif':
        return await image.gif().toBuffer();
    }
  } catch {
    return null;
  }
}

/** Where an avatar is served: under the API, named by the user and the hash of the bytes. */
export function avatarPath(apiPrefix: string, userId: string, etag: string): string {
  return `${apiPrefix}/auth/avatars/${userId}/${etag}`;
}

export interface StoredAvatar {
  contentType: string;
  bytes: Buffer;
  etag: string;
  updatedAt: Date;
}

export function createAvatarService(deps: Deps, apiPrefix: string) {
  const { db, now } = deps;
  return {
    /** Stores the image as the user's avatar (replacing any earlier one) and points the profile at it. */
    async store(userId: string, file: Blob): Promise<User> {
      if (file.size > AVATAR_MAX_BYTES) throw new AppError(413, AVATAR_MESSAGES.tooLarge);
      const upload = Buffer.from(await file.arrayBuffer());
      const contentType = sniffImage(upload);
      if (!contentType) throw new AppError(415, AVATAR_MESSAGES.notAnImage);
      const bytes = await imageWork.run(() => reencodeImage(upload, contentType));
      if (!bytes) throw new AppError(415, AVATAR_MESSAGES.notAnImage);
      const etag = createHash('sha256').update(bytes).digest('hex');
      const at = now();
      return transaction(db, async (tx) => {
        // The user's row first, as every transaction that touches a user's data does.
        const [user] = await tx
          .update(users)
          .set({ avatarUrl: avatarPath(apiPrefix, userId, etag), updatedAt: at })
          .where(eq(users.id, userId))
          .returning();
        if (!user) throw new AppError(404, 'Not Found');
        await tx
          .insert(avatars)
          .values({ userId, contentType, bytes, etag, updatedAt: at })
          .onConflictDoUpdate({
            target: avatars.userId,
            set: { contentType, bytes, etag, updatedAt: at },
          });
        return user;
      });
    },

    /** The avatar, if the user has one with this hash (an older hash is gone with its image). */
    async find(userId: string, etag: string): Promise<StoredAvatar | null> {
      const [row] = await db
        .select({
          contentType: avatars.contentType,
          bytes: avatars.bytes,
          etag: avatars.etag,
          updatedAt: avatars.updatedAt,
        })
        .from(avatars)
        .where(and(eq(avatars.userId, userId), eq(avatars.etag, etag)))
        .limit(1);
      return row ?? null;
    },
  };
}
