import type { Meta, StoryObj } from '@storybook/react-vite';
import { SafetyAlerts } from 'ayah-coach/teacher';
import { expect, userEvent, within } from 'storybook/test';

import { apiError, pending } from '../../fakes/chat';
import { fakeTeacherAdapter, sampleAlert } from '../../fakes/teacher';

const meta = {
  title: 'Teacher/SafetyAlerts',
  component: SafetyAlerts,
  args: { adapter: fakeTeacherAdapter() },
} satisfies Meta<typeof SafetyAlerts>;

export default meta;
type Story = StoryObj<typeof meta>;

const twoAlerts = () =>
  fakeTeacherAdapter({
    alerts: [
      sampleAlert(),
      sampleAlert({
        id: 'a-2',
        category: 'personal_data',
        severity: 'low',
        unread: false,
        student: { id: 's-ada', name: 'Ada Lovelace' },
        last_flag_at: '2026-03-11T09:00:00Z',
      }),
    ],
  });

/** The alerts are on their way. */
export const Loading: Story = {
  args: { adapter: fakeTeacherAdapter({}, { alerts: (_q, o) => pending(o) }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent(
      'Loading alerts…',
    );
  },
};

/** No alert. */
export const Empty: Story = {
  args: { adapter: fakeTeacherAdapter({ alerts: [] }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText(/No safety alerts/)).toBeInTheDocument();
  },
};

/** Newest first, with the unread count. */
export const AlertList: Story = {
  args: { adapter: twoAlerts() },
  play: async ({ canvasElement }) => {
    const list = await within(canvasElement).findByRole('list', { name: 'Alerts, newest first' });
    await expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await expect(within(canvasElement).getByRole('heading', { level: 2 })).toHaveTextContent(
      '1 unread',
    );
  },
};

/** An alert opened by keyboard: the student, the flagged message and Ayah's answer. */
export const AlertDetail: Story = {
  args: { adapter: twoAlerts() },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const first = await canvas.findByRole('button', { name: /Ben Okafor · Self-harm/ });
    first.focus();
    await userEvent.keyboard('{Enter}');
    const panel = await canvas.findByRole('region', { name: 'Ben Okafor: Self-harm' });
    await expect(panel).toHaveTextContent('I want to hurt myself');
    await expect(panel).toHaveTextContent('a trusted adult at your school');
    await expect(canvas.queryByText('1 unread')).not.toBeInTheDocument();
  },
};

/** Acknowledged, then resolved with a note: both in the record. */
export const Resolved: Story = {
  args: { adapter: fakeTeacherAdapter(), alertId: 'a-1' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const panel = await canvas.findByRole('region', { name: 'Ben Okafor: Self-harm' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Acknowledge' }));
    await userEvent.type(
      await within(panel).findByLabelText('Note (what was done)'),
      'Spoke with Ben and his parents',
    );
    await userEvent.click(within(panel).getByRole('button', { name: 'Resolve' }));
    await expect(
      await within(panel).findByText('Resolved', { selector: 'dd' }),
    ).toBeInTheDocument();
    await expect(panel).toHaveTextContent('Resolved by Ms Rivera (Spoke with Ben and his parents)');
  },
};

/** The alerts could not be loaded: a retry. */
export const Failed: Story = {
  args: { adapter: fakeTeacherAdapter({}, { alerts: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};

/** A mail that could not be delivered shows on the alert. */
export const FailedDelivery: Story = {
  args: {
    adapter: fakeTeacherAdapter({
      alerts: [
        sampleAlert({
          deliveries: [
            {
              recipient: 'lead@school.example',
              status: 'failed',
              attempts: 2,
              last_error: 'connect ECONNREFUSED',
              sent_at: null,
            },
          ],
        }),
      ],
    }),
    alertId: 'a-1',
  },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText(/lead@school.example: failed after 2 tries/),
    ).toBeInTheDocument();
  },
};
