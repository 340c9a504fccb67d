import type { Meta, StoryObj } from '@storybook/react-vite';
import { Field } from 'ayah-coach';
import { PasswordInput } from 'ayah-coach';
import { expect, fn, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/PasswordInput',
  component: PasswordInput,
  args: { autoComplete: 'new-password', onVisibleChange: fn() },
  render: (args) => (
    <div style={{ maxWidth: 360 }}>
      <Field label="New password" description="At least 8 characters.">
        <PasswordInput {...args} />
      </Field>
    </div>
  ),
} satisfies Meta<typeof PasswordInput>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Toggling: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByLabelText('New password');
    await expect(input).toHaveAttribute('type', 'password');
    await expect(input).toHaveAccessibleDescription('At least 8 characters.');

    await userEvent.tab();
    await expect(input).toHaveFocus();
    await userEvent.keyboard('Secret#1');

    // Tab on to the toggle and press it with the keyboard.
    await userEvent.tab();
    const show = canvas.getByRole('button', { name: 'Show password' });
    await expect(show).toHaveFocus();
    await expect(show).toHaveAttribute('aria-pressed', 'false');
    await userEvent.keyboard('{Enter}');

    const hide = canvas.getByRole('button', { name: 'Hide password' });
    await expect(hide).toHaveAttribute('aria-pressed', 'true');
    await expect(hide).toHaveFocus();
    await expect(input).toHaveAttribute('type', 'text');
    await expect(input).toHaveValue('Secret#1');
    await expect(args.onVisibleChange).toHaveBeenLastCalledWith(true);

    await userEvent.click(hide);
    await expect(input).toHaveAttribute('type', 'password');
    await expect(canvas.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  },
};

export const WithError: Story = {
  render: (args) => (
    <div style={{ maxWidth: 360 }}>
      <Field label="Current password" error="Please fill in all password fields">
        <PasswordInput {...args} autoComplete="current-password" />
      </Field>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByLabelText('Current password');
    await expect(input).toBeInvalid();
    await expect(input).toHaveAccessibleDescription('Please fill in all password fields');
  },
};

export const Disabled: Story = {
  args: { disabled: true, defaultValue: 'Secret#1' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByLabelText('New password')).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Show password' })).toBeDisabled();
  },
};
