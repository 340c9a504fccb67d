import type { Meta, StoryObj } from '@storybook/react-vite';
import { Field } from 'ayah-coach';
import { PasswordInput } from 'ayah-coach';
import { PasswordRequirements } from 'ayah-coach';
import { PasswordStrength } from 'ayah-coach';
import { useState } from 'react';
import { expect, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/PasswordRequirements',
  component: PasswordRequirements,
  args: { password: 'abcdefgh' },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 360 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof PasswordRequirements>;

export default meta;
type Story = StoryObj<typeof meta>;

export const PartiallyMet: Story = {
  play: async ({ canvasElement }) => {
    const list = within(canvasElement).getByRole('list', { name: 'Password requirements' });
    const items = within(list).getAllByRole('listitem');
    await expect(items.map((item) => item.textContent)).toEqual([
      'At least 8 characters, met',
      'At least one lowercase letter, met',
      'At least one uppercase letter, not met',
      'At least one number, not met',
      'At least one special character, not met',
    ]);
    await expect(items[0]).toHaveClass('ay:text-success');
    await expect(items[2]).toHaveClass('ay:text-muted-foreground');
  },
};

export const AllMet: Story = {
  args: { password: 'Abcdef1!' },
  play: async ({ canvasElement }) => {
    const items = within(canvasElement).getAllByRole('listitem');
    for (const item of items) await expect(item).toHaveAttribute('data-met', 'true');
  },
};

/** The reset-password screen's trio: the field, the meter and the checklist, updating as you type. */
export const WhileTyping: Story = {
  render: function Render() {
    const [password, setPassword] = useState('');
    return (
      <div style={{ display: 'grid', gap: 8 }}>
        <Field label="New password">
          <PasswordInput
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            aria-describedby="requirements"
            autoComplete="new-password"
          />
        </Field>
        <PasswordStrength password={password} />
        <PasswordRequirements id="requirements" password={password} />
      </div>
    );
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByLabelText('New password');
    await expect(input).toHaveAccessibleDescription(/At least 8 characters\s*, not met/);

    await userEvent.type(input, 'Abc1!');
    await expect(canvas.getByRole('status')).toHaveTextContent('Password strength: Good');
    await expect(canvas.getByText('At least 8 characters').closest('li')).toHaveAttribute(
      'data-met',
      'false',
    );

    await userEvent.type(input, 'xyz');
    await expect(canvas.getByRole('status')).toHaveTextContent('Password strength: Strong');
    await expect(canvas.getByText('At least 8 characters').closest('li')).toHaveAttribute(
      'data-met',
      'true',
    );
  },
};
