/**
 * The maths pool under one student's pathological equation (red team round 3, #2): it keeps one
 * thread busy for its whole budget, and only that thread is ended, while the others answer everyone
 * else's maths; a call's clock starts when it runs; a huge expression never reaches the engines.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import {
  POOL_SIZE,
  runMaths,
  TOO_BIG,
  TOO_LONG,
  tooBig,
  warmUp,
} from '../../../server/llm/maths-pool';
import { SLOW_EQUATION } from '../slow-maths';

/** The slow equation's budget: it runs for 5 s and more (longer on a busy machine), so it always runs out. */
const BUDGET_MS = 1000;
/** A quick equation's: milliseconds of work, which a busy machine may stretch, never to this. */
const ROOMY_MS = 30_000;
const check = (
  expression: string,
  budgetMs = expression === SLOW_EQUATION ? BUDGET_MS : ROOMY_MS,
) => runMaths({ name: 'check_math', input: { expression } }, budgetMs);

describe('the maths pool', () => {
  it('has a thread per core, at least two', () => {
    expect(POOL_SIZE).toBeGreaterThanOrEqual(2);
  });

  it(
    'answers 15 students’ equations while one student’s equation holds a thread past its budget',
    { timeout: 60_000 },
    async () => {
      await warmUp();
      const attack = check(SLOW_EQUATION);
      const others = Array.from({ length: 15 }, () => check('2x + 3 = 11'));
      const answers = await Promise.all(others);
      expect(answers).toEqual(Array.from({ length: 15 }, () => ({ solutions: 'x = 4' })));
      expect(await attack).toEqual({ error: TOO_LONG });

      // The ended thread was replaced; two attacks at once, and the pool is whole again after.
      await warmUp();
      const both = await Promise.all([check(SLOW_EQUATION), check(SLOW_EQUATION)]);
      expect(both).toEqual([{ error: TOO_LONG }, { error: TOO_LONG }]);
      await warmUp();
      expect(await check('3x = 12')).toEqual({ solutions: 'x = 4' });
    },
  );

  it(
    'refuses an expression too big for the engines before it is queued',
    { timeout: 30_000 },
    async () => {
      const deep = '('.repeat(20) + 'x' + ')'.repeat(20) + ' = 1';
      const long = Array.from({ length: 70 }, () => '1').join('+');
      expect(tooBig(deep)).toBe(true);
      expect(tooBig(long)).toBe(true);
      expect(tooBig(SLOW_EQUATION)).toBe(false);
      expect(tooBig('(3/4 + 1/8) * (2x - 1) = 5')).toBe(false);
      // Every thread busy on the slow equation: the refusals still come first, so they were never queued.
      await warmUp();
      const order: string[] = [];
      const busy = Array.from({ length: POOL_SIZE }, () =>
        check(SLOW_EQUATION).then(() => order.push('slow')),
      );
      const refused = [
        check(deep),
        runMaths({ name: 'solve_steps', input: { problem: long } }, BUDGET_MS),
      ].map((answer) => answer.then((a) => (order.push('refused'), a)));
      expect(await Promise.all(refused)).toEqual([{ error: TOO_BIG }, { error: TOO_BIG }]);
      await Promise.all(busy);
      expect(order.slice(0, 2)).toEqual(['refused', 'refused']);
    },
  );

  it('never keeps a process alive once its answers are in', { timeout: 60_000 }, async () => {
    // A script that checked one equation ends by itself (a bench once hung after its last line:
    // the threads' ports were referenced again by their listeners).
    const pool = fileURLToPath(new URL('../../../server/llm/maths-pool.ts', import.meta.url));
    // Its threads loaded first: loading takes seconds on a busy machine, past the queue's limit.
    const script = `const { runMaths, warmUp } = await import(${JSON.stringify(pool)});
      await warmUp();
      const answer = await runMaths({ name: 'check_math', input: { expression: '2x + 3 = 11' } }, 30000);
      console.log(JSON.stringify(answer));`;
    // From the sources, as a script run by tsx loads them: its threads too, through tsx's loader.
    const { AYAH_WORKER_DIR: _built, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { env, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (bytes: Buffer) => (out += String(bytes)));
    const ended = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const stuck = setTimeout(() => child.kill('SIGKILL'), 40_000);
    const code = await ended;
    clearTimeout(stuck);
    expect(JSON.parse(out)).toEqual({ solutions: 'x = 4' });
    expect(code).toBe(0);
  });
});
