import type { Meta, StoryObj } from '@storybook/react-vite';
import { Input } from 'ayah-coach';
import { expect, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/Input',
  component: Input,
  args: { 'aria-label': 'Search chats', placeholder: 'Search chats' },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 320 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Input>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox', { name: 'Search chats' });
    await userEvent.tab();
    await expect(input).toHaveFocus();
    await userEvent.keyboard('fractions');
    await expect(input).toHaveValue('fractions');
  },
};

export const Invalid: Story = {
  args: { 'aria-invalid': true, defaultValue: 'not-an-email', 'aria-label': 'Email' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox', { name: 'Email' });
    await expect(input).toBeInvalid();
    await expect(getComputedStyle(input).borderTopColor).toBe('rgb(185, 28, 28)');
  },
};

export const Disabled: Story = {
  args: { disabled: true, defaultValue: 'student@school.edu', 'aria-label': 'Email' },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox', { name: 'Email' });
    await expect(input).toBeDisabled();
    await userEvent.tab();
    await expect(input).not.toHaveFocus();
  },
};
