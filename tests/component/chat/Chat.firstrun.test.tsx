/** The chat on a first run (issue 13, items 7 and 8): focus, a long paste, a plain announcement. */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { controlledStream, fakeChatAdapter } from '../../../fakes/chat';
import { Chat } from '../../../src/chat/Chat';
import { memoryChatStore } from '../../../src/chat/chat.store';
import { clampMessage } from '../../../src/lib/chat';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

function renderChat(
  sendStream?: ReturnType<typeof controlledStream>['stream'],
  { focusOnMount = true } = {},
) {
  const adapter = fakeChatAdapter(sendStream ? { sendStream } : {});
  const view = renderWithToasts(
    <Chat adapter={adapter} store={memoryChatStore()} focusOnMount={focusOnMount} />,
  );
  const input = () => screen.getByRole('textbox', { name: 'Message Ayah' });
  return { ...view, input };
}

describe('<Chat> on a first run', () => {
  it('focuses the message input on load when the host asks for it', async () => {
    const { input } = renderChat();
    await waitFor(() => expect(input()).toHaveFocus());
  });

  // Issue 25 item 9: an embed must not take a portal reader's focus as it mounts.
  it('leaves focus where it is by default, as an embed', async () => {
    const adapter = fakeChatAdapter();
    renderWithToasts(<Chat adapter={adapter} store={memoryChatStore()} />);
    const input = screen.getByRole('textbox', { name: 'Message Ayah' });
    // Long enough for the effect that focused it before to have run.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(input).not.toHaveFocus();
    expect(document.activeElement).toBe(document.body);
  });

  it('keeps the first 4000 characters of a longer paste, with the spec toast', async () => {
    const { user, input } = renderChat();
    await user.click(input());
    await user.paste('a'.repeat(4100));
    expect((input() as HTMLTextAreaElement).value).toBe('a'.repeat(4000));
    await findToast('Message can be up to 4000 characters only.', 'alert');
  });

  it('announces the finished reply as plain words, formulas spoken', async () => {
    const stream = controlledStream();
    const { user, input } = renderChat(stream.stream);
    await user.type(input(), 'Hi{Enter}');
    act(() => stream.finish({ response: '**Yes**: `x` is $x^2 = 4$, so $x = \\frac{4}{2}$.' }));
    const status = screen
      .getAllByRole('status')
      .find((node) => node.getAttribute('aria-atomic') === 'true')!;
    await waitFor(() =>
      expect(status).toHaveTextContent('Yes: x is x squared equals 4 , so x equals 4 over 2 .'),
    );
    expect(status.textContent).not.toMatch(/[*`$\\]/);
  });
});

describe('clampMessage', () => {
  it('never splits an emoji at the limit', () => {
    const text = `${'a'.repeat(3999)}😀tail`;
    expect(clampMessage(text)).toBe('a'.repeat(3999));
    expect(clampMessage('short')).toBe('short');
  });
});
