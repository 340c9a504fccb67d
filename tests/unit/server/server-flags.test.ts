/**
 * README's production section starts server processes by hand: with the Node flags `npm start`
 * gives the server (scripts/server-flags.mjs), so a change to them reaches the command shown.
 */
import { readFileSync } from 'node:fs';

import { expect, it } from 'vitest';

import { SERVER_NODE_FLAGS } from '../../../scripts/server-flags.mjs';

it("gives README's server processes the flags npm start gives the server", () => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const commands = [...readme.matchAll(/\bnode((?: --\S+)*) server\/dist\/main\.js/g)];
  expect(commands.length).toBeGreaterThan(0);
  for (const [, flags] of commands) expect(flags!.trim().split(' ')).toEqual(SERVER_NODE_FLAGS);
});
