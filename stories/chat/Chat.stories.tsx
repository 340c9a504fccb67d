import type { Meta, StoryObj } from '@storybook/react-vite';
import { Chat, type ChatProps } from 'ayah-coach/chat';
import { memoryChatStore } from 'ayah-coach/chat';
import { CHAT } from 'ayah-coach/rules';
import { welcomeBack } from 'ayah-coach/rules';
import { useState } from 'react';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';

import {
  apiError,
  brokenStream,
  checkingStream,
  fakeChatAdapter,
  pending,
  sessionDetail,
  streamOf,
} from '../../fakes/chat';
import { clearToasts, expectFrameFilled, Frame, toastsSettled } from '../support';

const shortReply =
  'Great question! Photosynthesis is how plants make their own food from light, water and air.';

// A long saved conversation, to have something to scroll.
const longConversation = Array.from({ length: 8 }, (_, i) => [
  {
    id: `q${i}`,
    role: 'user' as const,
    content: `Question ${i + 1}: what comes next?`,
    createdAt: '',
  },
  {
    id: `a${i}`,
    role: 'assistant' as const,
    content: `Answer ${i + 1}. ${'Each step builds on the one before it. '.repeat(6)}`,
    createdAt: '',
  },
]).flat();

/**
 * The stories' default backend and store; each story's mount gets fresh ones (and its own store
 * always), so what one story sends, renames or deletes never shows in the next.
 */
const defaultAdapter = fakeChatAdapter();

function FreshChat(args: ChatProps) {
  const [adapter] = useState(() =>
    args.adapter === defaultAdapter ? fakeChatAdapter() : args.adapter,
  );
  const [store] = useState(memoryChatStore);
  return (
    <Frame>
      <Chat {...args} adapter={adapter} store={store} />
    </Frame>
  );
}

const meta = {
  title: 'Chat/Chat',
  component: Chat,
  args: { adapter: defaultAdapter },
  render: (args) => <FreshChat {...args} />,
  beforeEach: clearToasts,
  // Every chat story at one width: the frame's, whatever the chat shows.
  afterEach: ({ canvasElement }) => expectFrameFilled(canvasElement, 'chat'),
} satisfies Meta<typeof Chat>;

export default meta;
type Story = StoryObj<typeof meta>;

const input = () => screen.getByRole('textbox', { name: 'Message Ayah' });

async function send(text: string) {
  await userEvent.type(input(), `${text}{Enter}`);
}

/** No messages yet: the logo, the heading and the centred input. */
export const Empty: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('heading', { name: 'Ready to learn together?' })).toBeVisible();
    await expect(input()).toHaveAttribute('placeholder', 'Message Ayah');
    await expect(canvas.getByText('Ayah can make mistakes. Check important info.')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Send message' })).toBeDisabled();
  },
};

/** A saved conversation, opened from the URL. */
export const Conversation: Story = {
  args: { sessionId: 's1' },
  play: async ({ canvasElement }) => {
    const log = await within(canvasElement).findByRole('log', { name: 'Conversation with Ayah' });
    await expect(within(log).getByText('How do I add 1/2 and 1/3?')).toBeVisible();
    // The maths is typeset as the conversation first shows (the renderer and KaTeX were loaded
    // before the story): no formula's source, no reply as plain text, not even for a frame.
    await expect(log.querySelectorAll('.katex').length).toBeGreaterThan(0);
    await expect(
      log.querySelectorAll('[data-slot="math-source"], [data-slot="markdown-loading"]'),
    ).toHaveLength(0);
  },
};

/** Opening a session: 'Loading conversation...'. */
export const LoadingConversation: Story = {
  args: {
    sessionId: 's1',
    adapter: fakeChatAdapter({ getSession: (_id, options) => pending(options) }),
  },
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getByText('Loading conversation...')).toBeVisible();
    await expect(input()).toHaveAttribute('aria-disabled', 'true');
  },
};

/** A reply is awaited: the three-dot typing indicator; input and send are disabled, Stop is offered. */
export const Waiting: Story = {
  args: { adapter: fakeChatAdapter({ sendStream: brokenStream([], null) }) },
  play: async ({ canvasElement }) => {
    await send('What is a prime number?');
    const canvas = within(canvasElement);
    await expect(canvas.getByText('Ayah is typing…')).toBeInTheDocument();
    await expect(input()).toHaveAttribute('readonly');
    await expect(canvas.getByRole('button', { name: 'Stop reply' })).toBeEnabled();
    await expect(input()).toHaveFocus();
  },
};

/** The reply streams in and grows; the log stays quiet until it is complete. */
export const Streaming: Story = {
  args: {
    adapter: fakeChatAdapter({
      sendStream: brokenStream(
        ['Photosynthesis is how plants ', 'make their own food, using '],
        null,
      ),
    }),
  },
  play: async ({ canvasElement }) => {
    await send('Explain photosynthesis');
    const log = within(canvasElement).getByRole('log');
    await expect(await within(log).findByText(/using/)).toBeVisible();
    await expect(log).toHaveAttribute('aria-busy', 'true');
    await expect(log).toHaveAttribute('aria-live', 'off');
  },
};

/** The tutor checks its maths before it answers: 'Checking the maths…' beside the typing dots. */
export const CheckingTheMaths: Story = {
  args: { adapter: fakeChatAdapter({ sendStream: checkingStream('Checking the maths…') }) },
  play: async ({ canvasElement }) => {
    await send('Is 3/4 + 1/8 = 7/8?');
    const log = within(canvasElement).getByRole('log');
    // Said once to screen readers too: the log itself is silent while a reply is awaited.
    const status = await within(log).findByText('Checking the maths…');
    await expect(status).toBeVisible();
    await expect(status).toHaveAttribute('role', 'status');
    await expect(within(log).queryByText('Ayah is typing…')).toBeNull();
  },
};

/** Mid-reply the tutor checks a number again: the text so far stays, the status shows under it. */
export const CheckingTheMathsMidReply: Story = {
  args: {
    adapter: fakeChatAdapter({
      sendStream: checkingStream('Checking the maths…', ['Let us add the fractions: ']),
    }),
  },
  play: async ({ canvasElement }) => {
    await send('Is 3/4 + 1/8 = 7/8?');
    const log = within(canvasElement).getByRole('log');
    await expect(await within(log).findByText(/Let us add the fractions/)).toBeVisible();
    await expect(await within(log).findByText('Checking the maths…')).toBeVisible();
  },
};

/** Streaming failed, the plain send answered: the reply is revealed 3 characters every 50 ms. */
export const FallbackSimulatedStream: Story = {
  args: {
    adapter: fakeChatAdapter({
      sendStream: brokenStream([]),
      // Short enough to be revealed whole in about 1.5 s (3 characters every 50 ms).
      send: async () => ({ response: shortReply, sessionId: 's9', threadId: 't9' }),
    }),
  },
  play: async ({ canvasElement }) => {
    await send('Explain photosynthesis');
    const canvas = within(canvasElement);
    await expect(await canvas.findByText(/Great question/)).toBeVisible();
    // Still revealing: only part of the reply is shown yet.
    await expect(canvas.getByRole('button', { name: 'Stop reply' })).toBeInTheDocument();
    await expect(canvas.queryByText(/water and air/)).not.toBeInTheDocument();
    // More of it appears every 50 ms.
    const shown = () => canvas.getByRole('log').textContent?.length ?? 0;
    const before = shown();
    await waitFor(() => expect(shown()).toBeGreaterThan(before));
  },
};

/** Both sends failed: the message is removed, the toast says so, and Retry is offered. */
export const SendFailed: Story = {
  args: {
    adapter: fakeChatAdapter({
      sendStream: brokenStream([]),
      send: () => Promise.reject(apiError()),
    }),
  },
  play: async ({ canvasElement }) => {
    await send('Help me with fractions');
    await expect(
      await screen.findByText('Failed to send message. Please try again.'),
    ).toBeVisible();
    const canvas = within(canvasElement);
    await expect(canvas.queryByRole('log')).not.toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
    await toastsSettled();
  },
};

/** Typing beyond 4000 characters is refused with a toast. */
export const TooLong: Story = {
  play: async () => {
    await userEvent.click(input());
    await userEvent.paste('a'.repeat(CHAT.maxMessageLength));
    await userEvent.keyboard('b');
    await expect(
      await screen.findByText('Message can be up to 4000 characters only.'),
    ).toBeVisible();
    await expect((input() as HTMLTextAreaElement).value).toHaveLength(CHAT.maxMessageLength);
    await toastsSettled();
  },
};

/** The student stopped the reply: the partial answer stays, marked stopped, with Retry. */
export const Stopped: Story = {
  args: {
    adapter: fakeChatAdapter({
      sendStream: brokenStream(['Gravity is the force that ', 'pulls objects toward '], null),
    }),
  },
  play: async ({ canvasElement }) => {
    await send('Explain gravity');
    const canvas = within(canvasElement);
    await canvas.findByText(/pulls objects/);
    await userEvent.click(canvas.getByRole('button', { name: 'Stop reply' }));
    await expect(canvas.getByText('Reply stopped.')).toBeVisible();
    await expect(canvas.getByText(/pulls objects toward/)).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(input()).toHaveFocus();
  },
};

/** A saved session without messages: the welcome-back message and the toast. */
export const WelcomeBack: Story = {
  args: {
    sessionId: 's1',
    adapter: fakeChatAdapter({
      getSession: async (id) => sessionDetail(id, [], 'Fractions homework'),
    }),
  },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText(welcomeBack('Fractions homework')),
    ).toBeVisible();
    await expect(await screen.findByText('Started conversation: Fractions homework')).toBeVisible();
    await toastsSettled();
  },
};

/** The URL named a session that cannot be loaded: a toast, and a new conversation. */
export const SessionNotFound: Story = {
  args: {
    sessionId: 'missing',
    adapter: fakeChatAdapter({ getSession: () => Promise.reject(apiError(404, 'Not found')) }),
  },
  play: async ({ canvasElement }) => {
    await expect(
      await screen.findByText('Chat session not found, starting new conversation'),
    ).toBeVisible();
    await expect(
      within(canvasElement).getByRole('heading', { name: 'Ready to learn together?' }),
    ).toBeVisible();
    await toastsSettled();
  },
};

/** The guest of an embedded widget is asked to sign in. */
export const Guest: Story = {
  args: { user: { id: 'guest-user' }, onSignIn: () => {} },
  play: async ({ canvasElement }) => {
    await expect(
      within(canvasElement).getByText('Please sign in to access all features'),
    ).toBeVisible();
  },
};

/**
 * Auto-scroll follows the stream, but a student who scrolls up is left alone: a "jump to latest"
 * button appears, and brings the view back to the growing reply.
 */
export const ScrolledUpWhileStreaming: Story = {
  args: {
    sessionId: 's1',
    adapter: fakeChatAdapter({
      getSession: async (id) => sessionDetail(id, longConversation),
      sendStream: streamOf(
        // Long enough to grow twice past a screen's end, short enough to end in about 1.2 s.
        Array.from({ length: 80 }, (_, i) => `word${i} `),
        undefined,
        { delayMs: 15 },
      ),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const log = await canvas.findByRole('log');
    const scroller = log.closest<HTMLElement>('[data-slot="chat-scroller"]')!;
    const distanceToEnd = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight;
    await waitFor(() => expect(distanceToEnd()).toBeLessThanOrEqual(4));
    // The conversation opened on its last messages: the earlier ones mount on request.
    let earlier;
    while ((earlier = canvas.queryByRole('button', { name: 'Show earlier messages' }))) {
      await userEvent.click(earlier);
    }
    await expect(canvas.getByText(/^Question 1:/)).toBeInTheDocument();

    await send('Keep going');
    await canvas.findByText(/word3/);
    await waitFor(() => expect(distanceToEnd()).toBeLessThanOrEqual(4));

    // The student scrolls up: the stream grows on, the view stays.
    scroller.scrollTop = 0;
    const jump = await canvas.findByRole('button', { name: 'Jump to latest message' });
    const height = scroller.scrollHeight;
    await waitFor(() => expect(scroller.scrollHeight).toBeGreaterThan(height + 40), {
      timeout: 5000,
    });
    await expect(scroller.scrollTop).toBe(0);

    // Back to the end; the chat stays pinned there from the next frame on as the reply grows.
    await userEvent.click(jump);
    await waitFor(() => expect(distanceToEnd()).toBeLessThanOrEqual(4));
    await expect(canvas.queryByRole('button', { name: 'Jump to latest message' })).toBeNull();
    const next = scroller.scrollHeight;
    await waitFor(() => expect(scroller.scrollHeight).toBeGreaterThan(next + 40), {
      timeout: 5000,
    });
    await waitFor(() => expect(distanceToEnd()).toBeLessThanOrEqual(4));
  },
};
