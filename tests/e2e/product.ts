/**
 * The running product for end-to-end tests: `scripts/start.mjs` (what `npm start` runs) on a free
 * loopback port with a scratch data dir, so the app is built and served exactly as a student gets it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

import { withLock } from '../built-package';
import type { FakeOpenAI } from '../server/fake-openai';
import { launch } from './browser';
import { START_LOCK } from './product-build';

const root = path.resolve(import.meta.dirname, '../..');

export type Product = {
  url: string;
  dataDir: string;
  /** Every mail in the outbox, oldest first, as raw .eml text. */
  mails(): string[];
  /** The first link in the newest mail whose text matches `pattern`. */
  linkFrom(pattern: RegExp): Promise<string>;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startProduct(env: Record<string, string> = {}): Promise<Product> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ayah-e2e-'));
  // Under vitest, the product starts on a copy of one migrated database (pgdata-global-setup.ts)
  // rather than making its own; a benchmark run outside vitest starts on an empty data dir.
  const template = process.env.VITEST ? inject('ayahPgdataTemplate') : '';
  if (template) cpSync(template, path.join(dataDir, 'pgdata'), { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const deadline = Date.now() + 180_000;
  // Held while start.mjs builds what is stale: the first start (or the global setup) builds, the
  // others wait. Once it starts the server, the next product may start beside it: held until this one
  // answered, two products started together took a server's boot longer, 5-10 s on a busy runner.
  const child = await withLock(START_LOCK, async () => {
    const child: ChildProcess = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: String(port), PUBLIC_URL: url, AYAH_DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    while (!output.includes('[start] starting the server')) {
      if (child.exitCode !== null) throw new Error(`the product exited early:\n${output}`);
      if (Date.now() > deadline) throw new Error(`the product did not build:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return child;
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/v1/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the product did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  const outbox = path.join(dataDir, 'outbox');
  const mails = () => {
    try {
      return readdirSync(outbox)
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((f) => readFileSync(path.join(outbox, f), 'utf8'));
    } catch {
      return [];
    }
  };

  return {
    url,
    dataDir,
    mails,
    async linkFrom(pattern) {
      const until = Date.now() + 10_000;
      for (;;) {
        // Quoted-printable soft breaks and =3D would split or mangle the link.
        const texts = mails()
          .map((m) => m.replace(/=\r?\n/g, '').replace(/=3D/g, '='))
          .filter((m) => pattern.test(m));
        const newest = texts.at(-1);
        const link = newest?.match(/https?:\/\/[^\s"<>]+/g)?.find((l) => l.startsWith(url));
        if (link) return link;
        if (Date.now() > until) throw new Error(`no mail matching ${pattern} in the outbox`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface UseProductOptions {
  /** More environment for the product. */
  env?: Record<string, string>;
  /** A loopback model for the tutor: started before the product (which is pointed at it as model
   * `tutor`) and closed after it. */
  model?: FakeOpenAI;
  /** Launch Chromium alongside (default true); an API-only file says false. */
  browser?: boolean;
}

/** The product and Chromium of a test file, readable once its `beforeAll` has run. */
export interface RunningProduct {
  readonly product: Product;
  readonly browser: Browser;
}

/**
 * One product (and one Chromium) for the whole file: started together in a `beforeAll`, closed in an
 * `afterAll` (Chromium first). Hooks registered before this call run before the start and, since
 * vitest runs `afterAll` hooks in reverse, after the stop.
 */
export function useProduct(options: UseProductOptions = {}): RunningProduct {
  let product: Product | undefined;
  let browser: Browser | undefined;
  const { model } = options;
  beforeAll(async () => {
    await model?.start();
    const env = {
      ...(model && {
        AYAH_LLM_BASE_URL: model.url,
        AYAH_LLM_MODEL: 'tutor',
        AYAH_LLM_API_KEY: 'test',
      }),
      ...options.env,
    };
    [product, browser] = await Promise.all([
      startProduct(env),
      options.browser === false ? undefined : launch(),
    ]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await model?.close();
  });
  return {
    get product() {
      if (!product)
        throw new Error('the product is not started yet (read it inside a hook or test)');
      return product;
    },
    get browser() {
      if (!browser)
        throw new Error('no browser: not started yet, or useProduct({ browser: false })');
      return browser;
    },
  };
}

export const STUDENT_PASSWORD = 'Blue-Kettle-42';

/**
 * A student made through the API as the app would: registered, verified by the emailed link's token,
 * and (unless `onboarded` is false) through onboarding. Answers the access token of that sign-in.
 */
export async function createStudent(
  product: Product,
  { email, name, onboarded = true }: { email: string; name: string; onboarded?: boolean },
): Promise<{ email: string; password: string; token: string }> {
  const post = async (path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${product.url}/api/v1/auth${path}`, {
      method: 'POST',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  await post('/register', {
    email,
    password: STUDENT_PASSWORD,
    display_name: name,
    agreed_to_terms: true,
    agreed_to_privacy: true,
  });
  const link = await product.linkFrom(new RegExp(email.replace(/[.+]/g, '\\$&')));
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  const { access_token } = (await post('/verify-email', { token })) as { access_token: string };
  if (onboarded) await post('/onboarding/complete', undefined, access_token);
  return { email, password: STUDENT_PASSWORD, token: access_token };
}
