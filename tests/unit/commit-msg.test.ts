import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

const HOOK = join(import.meta.dirname, '../../.githooks/commit-msg');

/** Runs the commit-msg hook on `message` as git would: with the path of a file holding it. */
function check(message: string) {
  const dir = mkdtempSync(join(tmpdir(), 'commit-msg-'));
  try {
    const file = join(dir, 'COMMIT_EDITMSG');
    writeFileSync(file, message);
    const run = spawnSync(HOOK, [file], { encoding: 'utf8' });
    return { status: run.status, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the commit-msg hook', () => {
  it('accepts a subject of 72 characters with a body after a blank line', () => {
    const subject = `Add ${'x'.repeat(68)}`;
    expect(subject).toHaveLength(72);
    expect(check(`${subject}\n\nWhy, with the figures.\n`)).toEqual({ status: 0, stderr: '' });
  });

  it('refuses a subject of 73 characters and says why', () => {
    const result = check(`Add ${'x'.repeat(69)}\n\nWhy.\n`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the subject is 73 characters; at most 72');
  });

  it('refuses an empty subject and a body glued to the subject', () => {
    expect(check('\n\nA body alone.\n').status).toBe(1);
    const glued = check('Add a thing\nand the why on the next line\n');
    expect(glued.status).toBe(1);
    expect(glued.stderr).toContain('a blank line separates the subject from the body');
  });

  it("ignores git's comment lines and the diff under `git commit -v`'s scissors", () => {
    const verbose = [
      'Fix the thing',
      '',
      '# Please enter the commit message for your changes.',
      '# ------------------------ >8 ------------------------',
      `diff --git a/${'y'.repeat(80)} b/${'y'.repeat(80)}`,
    ].join('\n');
    expect(check(verbose).status).toBe(0);
  });
});
