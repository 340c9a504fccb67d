import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  brokenStream,
  controlledStream,
  fakeChatAdapter,
  pending,
  sampleMessages,
  sessionDetail,
} from '../../../fakes/chat';
import type { ChatAdapter } from '../../../src/api';
import { Chat, type ChatProps } from '../../../src/chat/Chat';
import { memoryChatStore } from '../../../src/chat/chat.store';
import { CHAT } from '../../../src/lib/limits';
import { REFRESH_CHAT_HISTORY_EVENT } from '../../../src/lib/messages';
import { welcomeBack } from '../../../src/lib/messages';
import { findToast } from '../../support/toasts';
import { clearToasts, renderWithToasts } from '../render';

afterEach(() => clearToasts());

function renderChat(overrides: Partial<ChatAdapter> = {}, props: Partial<ChatProps> = {}) {
  const adapter = fakeChatAdapter(overrides);
  const view = renderWithToasts(<Chat adapter={adapter} store={memoryChatStore()} {...props} />);
  const input = () => screen.getByRole('textbox', { name: 'Message Ayah' });
  return { ...view, adapter, input };
}

// The reply renderer is a chunk of its own; a streaming reply shows the typing dots until it has
// loaded (tests/e2e/chat.test.ts holds it back on purpose). Here it is loaded before the first reply.
beforeAll(() => import('../../../src/markdown'));

describe('<Chat>', () => {
  it('shows the empty state with the centred input and the disclaimer', () => {
    const { input } = renderChat();
    expect(screen.getByRole('heading', { name: 'Ready to learn together?' })).toBeInTheDocument();
    expect(input()).toHaveAttribute('placeholder', 'Message Ayah');
    expect(input()).toHaveAccessibleDescription('Ayah can make mistakes. Check important info.');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
  });

  it('sends on Enter, trimmed, and keeps focus in the read-only input while waiting', async () => {
    const stream = controlledStream();
    const { user, input } = renderChat({ sendStream: stream.stream });
    await user.click(input());
    await user.keyboard('  What is a prime?  {Enter}');

    const log = screen.getByRole('log', { name: 'Conversation with Ayah' });
    expect(within(log).getByText('What is a prime?')).toBeInTheDocument();
    expect(within(log).getByText('Ayah is typing…')).toBeInTheDocument();
    expect(input()).toHaveValue('');
    expect(input()).toHaveFocus();
    expect(input()).toHaveAttribute('readonly');
    expect(input()).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Stop reply' })).toBeEnabled();
    await waitFor(() => expect(stream.requests).toHaveLength(1));
    expect(stream.requests[0]?.messages).toEqual([{ role: 'user', content: 'What is a prime?' }]);
  });

  it('makes a new line on Shift+Enter without sending', async () => {
    const sendStream = vi.fn(controlledStream().stream);
    const { user, input } = renderChat({ sendStream });
    await user.click(input());
    await user.keyboard('Line one{Shift>}{Enter}{/Shift}Line two');
    expect(input()).toHaveValue('Line one\nLine two');
    expect(sendStream).not.toHaveBeenCalled();
  });

  it('returns focus to the input after sending with the button', async () => {
    const { user, input } = renderChat({ sendStream: controlledStream().stream });
    await user.type(input(), 'Hello');
    await user.click(screen.getByRole('button', { name: 'Send message' }));
    expect(input()).toHaveFocus();
  });

  it('refuses typing beyond 4000 characters with the toast', async () => {
    const { user, input } = renderChat();
    await user.click(input());
    await user.paste('a'.repeat(CHAT.maxMessageLength));
    expect(input()).toHaveValue('a'.repeat(CHAT.maxMessageLength));
    expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled();
    await user.keyboard('b');
    expect(
      await findToast('Message can be up to 4000 characters only.', 'alert'),
    ).toBeInTheDocument();
    expect(input()).toHaveValue('a'.repeat(CHAT.maxMessageLength));
  });

  it('keeps the log quiet while streaming and announces the completed reply once', async () => {
    const stream = controlledStream();
    const { user, input } = renderChat({ sendStream: stream.stream });
    await user.type(input(), 'Hi{Enter}');
    const log = screen.getByRole('log');
    expect(log).toHaveAttribute('aria-busy', 'true');
    expect(log).toHaveAttribute('aria-live', 'off');

    act(() => stream.push('Hello, '));
    await waitFor(() => expect(within(log).getByText(/Hello,/)).toBeInTheDocument());
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    act(() => stream.finish({ response: 'Hello, student!' }));
    await waitFor(() => expect(log).toHaveAttribute('aria-busy', 'false'));
    expect(log).toHaveAttribute('aria-live', 'polite');
    expect(status).toHaveTextContent('Hello, student!');
    expect(screen.getByRole('button', { name: 'Send message' })).toBeDisabled();
  });

  it('stops a streaming reply, keeps the partial answer and offers Retry', async () => {
    const stream = controlledStream();
    const { user, input } = renderChat({ sendStream: stream.stream });
    await user.type(input(), 'Explain gravity{Enter}');
    act(() => stream.push('Gravity pulls'));
    await screen.findByText(/Gravity pulls/);

    await user.click(screen.getByRole('button', { name: 'Stop reply' }));
    expect(screen.getByText('Reply stopped.')).toBeInTheDocument();
    expect(screen.getByText(/Gravity pulls/)).toBeInTheDocument();
    expect(stream.signals[0]?.aborted).toBe(true);
    expect(input()).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(screen.queryByText('Reply stopped.')).not.toBeInTheDocument();
    await waitFor(() => expect(stream.requests).toHaveLength(2));
  });

  it('removes the message and toasts when sending fails, and retries it', async () => {
    const send = vi.fn(() => Promise.reject(apiError()));
    const { user, input } = renderChat({ sendStream: brokenStream([]), send });
    await user.type(input(), 'Help with fractions{Enter}');
    expect(
      await findToast('Failed to send message. Please try again.', 'alert'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    expect(screen.getByText('Help with fractions')).toBeInTheDocument(); // in the retry row

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
  });

  it('copies a message', async () => {
    const { user } = renderChat({}, { sessionId: 's1' });
    await screen.findByText(sampleMessages[0]!.content);
    const [copy] = screen.getAllByRole('button', { name: 'Copy message' });
    await user.click(copy!);
    expect(await navigator.clipboard.readText()).toBe(sampleMessages[0]!.content);
    expect(copy).toHaveAccessibleName('Copied');
  });
});

describe('<Chat> sessions', () => {
  it("shows 'Loading conversation...' then the session's messages", async () => {
    const { input } = renderChat({}, { sessionId: 's1' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading conversation...');
    expect(input()).toHaveAttribute('aria-disabled', 'true');
    expect(await screen.findByText(sampleMessages[0]!.content)).toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-disabled');
  });

  it('opens a long session on its last messages and mounts earlier ones on request', async () => {
    const messages = Array.from({ length: 30 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: `Message number ${i}.`,
      createdAt: '2025-03-14T09:00:00Z',
    }));
    const { user } = renderChat(
      { getSession: async (id) => sessionDetail(id, messages) },
      {
        sessionId: 's1',
      },
    );
    const log = await screen.findByRole('log', { name: 'Conversation with Ayah' });
    expect(within(log).getByText('Message number 29.')).toBeInTheDocument();
    expect(screen.queryByText('Message number 0.')).not.toBeInTheDocument();
    const earlier = screen.getByRole('button', { name: 'Show earlier messages' });
    while (screen.queryByRole('button', { name: 'Show earlier messages' }))
      await user.click(earlier);
    // History mounts above, outside the live log: loading it is not announced.
    expect(screen.getByText('Message number 0.')).toBeInTheDocument();
    expect(within(log).queryByText('Message number 0.')).not.toBeInTheDocument();
  }, 15_000); // thirty messages in jsdom, a page at a time: slow on a busy machine

  it('greets an empty session with the welcome-back message and a toast', async () => {
    renderChat(
      { getSession: async (id) => sessionDetail(id, [], 'Fractions homework') },
      {
        sessionId: 's1',
      },
    );
    expect(await screen.findByText(welcomeBack('Fractions homework'))).toBeInTheDocument();
    expect(await findToast('Started conversation: Fractions homework')).toBeInTheDocument();
  });

  it('starts a new conversation with a toast when the session is not found', async () => {
    const onSessionChange = vi.fn();
    renderChat(
      { getSession: () => Promise.reject(apiError(404)) },
      { sessionId: 'gone', onSessionChange },
    );
    expect(
      await findToast('Chat session not found, starting new conversation', 'alert'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ready to learn together?' })).toBeInTheDocument();
    expect(onSessionChange).toHaveBeenCalledWith(null);
  });

  it('puts the new session in the URL after the first reply and refreshes the chat lists once', async () => {
    const onSessionChange = vi.fn();
    const refresh = vi.fn();
    window.addEventListener(REFRESH_CHAT_HISTORY_EVENT, refresh);
    try {
      const { user, input } = renderChat({}, { onSessionChange });
      await user.type(input(), 'Hi{Enter}');
      await waitFor(() => expect(onSessionChange).toHaveBeenCalledWith('session-new'));
      await user.type(input(), 'Again{Enter}');
      await waitFor(() =>
        expect(screen.getByRole('log').querySelectorAll('[data-status="complete"]')).toHaveLength(
          2,
        ),
      );
      expect(refresh).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(REFRESH_CHAT_HISTORY_EVENT, refresh);
    }
  });

  it('follows the sessionId prop: another id opens it, removing it starts a new conversation', async () => {
    const getSession = vi.fn(async (id: string) => sessionDetail(id));
    const adapter = fakeChatAdapter({ getSession });
    const store = memoryChatStore();
    const { rerender } = renderWithToasts(<Chat adapter={adapter} store={store} sessionId="s1" />);
    await screen.findByText(sampleMessages[0]!.content);
    rerender(<Chat adapter={adapter} store={store} sessionId="s2" />);
    await waitFor(() => expect(getSession).toHaveBeenLastCalledWith('s2', expect.anything()));
    await screen.findByText(sampleMessages[0]!.content);
    rerender(<Chat adapter={adapter} store={store} sessionId={null} />);
    expect(
      await screen.findByRole('heading', { name: 'Ready to learn together?' }),
    ).toBeInTheDocument();
  });

  it("reports the conversation's title: the saved one's, the first message's, none for a new one", async () => {
    const onTitleChange = vi.fn();
    const adapter = fakeChatAdapter({
      getSession: async (id) => sessionDetail(id, sampleMessages, 'Fractions homework'),
    });
    const store = memoryChatStore();
    const { rerender, user } = renderWithToasts(
      <Chat adapter={adapter} store={store} sessionId="s1" onTitleChange={onTitleChange} />,
    );
    await waitFor(() => expect(onTitleChange).toHaveBeenLastCalledWith('Fractions homework'));
    rerender(
      <Chat adapter={adapter} store={store} sessionId={null} onTitleChange={onTitleChange} />,
    );
    await waitFor(() => expect(onTitleChange).toHaveBeenLastCalledWith(null));
    await user.type(
      screen.getByRole('textbox', { name: 'Message Ayah' }),
      '  What   is a prime?{Enter}',
    );
    await waitFor(() => expect(onTitleChange).toHaveBeenLastCalledWith('What is a prime?'));
  });

  it("restores a signed-in user's last conversation", async () => {
    const store = memoryChatStore();
    store.save('u1', {
      currentSessionId: 's3',
      currentThreadId: 't3',
      messageCount: 2,
      timestamp: 1,
    });
    const onSessionChange = vi.fn();
    renderWithToasts(
      <Chat
        adapter={fakeChatAdapter()}
        store={store}
        user={{ id: 'u1' }}
        onSessionChange={onSessionChange}
      />,
    );
    expect(await screen.findByText(sampleMessages[0]!.content)).toBeInTheDocument();
    expect(onSessionChange).toHaveBeenCalledWith('s3');
  });

  it('asks the guest to sign in', async () => {
    const onSignIn = vi.fn();
    const { user } = renderWithToasts(
      <Chat adapter={fakeChatAdapter()} user={{ id: 'guest-user' }} onSignIn={onSignIn} />,
    );
    expect(screen.getByText('Please sign in to access all features')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(onSignIn).toHaveBeenCalled();
  });

  it('aborts the request in flight when unmounted', async () => {
    const signals: AbortSignal[] = [];
    const { user, input, unmount } = renderChat({
      sendStream: (_b, options) => {
        signals.push(options!.signal!);
        return brokenStream([], null)(_b, options);
      },
      send: (_b, options) => pending(options),
    });
    await user.type(input(), 'Hi{Enter}');
    await waitFor(() => expect(signals).toHaveLength(1));
    unmount();
    expect(signals[0]?.aborted).toBe(true);
  });
});
