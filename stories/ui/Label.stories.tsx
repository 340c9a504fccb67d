import type { Meta, StoryObj } from '@storybook/react-vite';
import { Input } from 'ayah-coach';
import { Label } from 'ayah-coach';
import { expect, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/Label',
  component: Label,
  args: { children: 'Display name', htmlFor: 'display-name' },
  render: (args) => (
    <div style={{ display: 'grid', gap: 6, maxWidth: 320 }}>
      <Label {...args} />
      <Input id="display-name" />
    </div>
  ),
} satisfies Meta<typeof Label>;

export default meta;
type Story = StoryObj<typeof meta>;

export const WithInput: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const input = canvas.getByRole('textbox', { name: 'Display name' });
    // Clicking the label focuses its control.
    await userEvent.click(canvas.getByText('Display name'));
    await expect(input).toHaveFocus();
  },
};
