import type { Meta, StoryObj } from '@storybook/react-vite';
import { Field } from 'ayah-coach';
import { Input } from 'ayah-coach';
import { Textarea } from 'ayah-coach';
import { expect, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/Field',
  component: Field,
  args: { label: 'Email', children: <Input type="email" autoComplete="email" /> },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 360 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Field>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: 'Email' });
    await expect(input).not.toHaveAttribute('aria-describedby');
    await expect(input).not.toBeInvalid();
    await userEvent.click(canvas.getByText('Email'));
    await expect(input).toHaveFocus();
  },
};

export const WithDescription: Story = {
  args: {
    label: 'Bio',
    description: 'A sentence or two your coach can see.',
    children: <Textarea rows={3} />,
  },
  play: async ({ canvasElement }) => {
    const textarea = within(canvasElement).getByRole('textbox', { name: 'Bio' });
    await expect(textarea).toHaveAccessibleDescription('A sentence or two your coach can see.');
  },
};

export const Required: Story = {
  args: { required: true },
  play: async ({ canvasElement }) => {
    const input = within(canvasElement).getByRole('textbox', { name: 'Email' });
    await expect(input).toBeRequired();
  },
};

export const WithError: Story = {
  args: {
    label: 'Email',
    description: 'We send the verification link here.',
    error: 'Please enter a valid email address',
    children: <Input type="email" defaultValue="student@" />,
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: 'Email' });
    await expect(input).toBeInvalid();
    // Read after the label: the description, then the error.
    await expect(input).toHaveAccessibleDescription(
      'We send the verification link here. Please enter a valid email address',
    );
    // The error is announced.
    await expect(canvas.getByRole('alert')).toHaveTextContent('Please enter a valid email address');
  },
};
