import type { Meta, StoryObj } from '@storybook/react-vite';
import { ClassDashboard } from 'ayah-coach/teacher';
import { expect, userEvent, within } from 'storybook/test';

import { apiError, pending } from '../../fakes/chat';
import { fakeTeacherAdapter, manyStudents } from '../../fakes/teacher';

const meta = {
  title: 'Teacher/ClassDashboard',
  component: ClassDashboard,
  args: { adapter: fakeTeacherAdapter() },
} satisfies Meta<typeof ClassDashboard>;

export default meta;
type Story = StoryObj<typeof meta>;

const table = (canvasElement: HTMLElement) => within(canvasElement).findByRole('table');

/** The classes are on their way. */
export const Loading: Story = {
  args: { adapter: fakeTeacherAdapter({}, { classes: (o) => pending(o) }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByRole('status')).toHaveTextContent(
      'Loading the class…',
    );
  },
};

/** A class with three students: goals with progress bars, streak, questions, last active. */
export const Students: Story = {
  play: async ({ canvasElement }) => {
    const grid = await table(canvasElement);
    await expect(within(grid).getAllByRole('row')).toHaveLength(4);
    await expect(
      within(grid).getByRole('progressbar', { name: 'Ada Lovelace, math problems solved' }),
    ).toBeInTheDocument();
  },
};

/** Sorted by tutor questions, most first, and filtered to "No goal this week" by keyboard. */
export const SortedAndFiltered: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const grid = await table(canvasElement);
    const header = within(grid).getByRole('button', { name: 'Tutor questions this week' });
    header.focus();
    await userEvent.keyboard('{Enter}{Enter}');
    await expect(header.closest('th')).toHaveAttribute('aria-sort', 'descending');
    await userEvent.selectOptions(canvas.getByLabelText('Show'), 'No goal this week');
    await expect(within(grid).getAllByRole('row')).toHaveLength(2);
    await expect(grid).toHaveTextContent('Ben Okafor');
  },
};

/** A class nobody has launched into yet. */
export const EmptyClass: Story = {
  args: { adapter: fakeTeacherAdapter({ students: [] }) },
  play: async ({ canvasElement }) => {
    await expect(await within(canvasElement).findByText(/No students yet/)).toBeInTheDocument();
  },
};

/** Thirty students. */
export const ManyStudents: Story = {
  args: { adapter: fakeTeacherAdapter({ students: manyStudents(30) }) },
  play: async ({ canvasElement }) => {
    const grid = await table(canvasElement);
    await expect(within(grid).getAllByRole('row')).toHaveLength(31);
  },
};

/** The caller teaches no class. */
export const NoClasses: Story = {
  args: { adapter: fakeTeacherAdapter({ noClasses: true }) },
  play: async ({ canvasElement }) => {
    await expect(
      await within(canvasElement).findByText(/You do not teach a class/),
    ).toBeInTheDocument();
  },
};

/** The class could not be loaded: a retry. */
export const Failed: Story = {
  args: { adapter: fakeTeacherAdapter({}, { dashboard: () => Promise.reject(apiError(500)) }) },
  play: async ({ canvasElement }) => {
    const alert = await within(canvasElement).findByRole('alert');
    await expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  },
};
