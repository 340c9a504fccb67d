import type { Meta, StoryObj } from '@storybook/react-vite';
import { Button } from 'ayah-coach';
import { XIcon } from 'ayah-coach';
import { VisuallyHidden } from 'ayah-coach';
import { expect, within } from 'storybook/test';

const meta = {
  title: 'UI/VisuallyHidden',
  component: VisuallyHidden,
  args: { children: 'Close' },
  render: (args) => (
    <Button variant="ghost" size="icon">
      <XIcon />
      <VisuallyHidden {...args} />
    </Button>
  ),
} satisfies Meta<typeof VisuallyHidden>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Names an icon button without showing the text. */
export const InIconButton: Story = {
  play: async ({ canvasElement }) => {
    const button = within(canvasElement).getByRole('button', { name: 'Close' });
    const text = within(button).getByText('Close');
    const box = text.getBoundingClientRect();
    await expect(box.width * box.height).toBeLessThanOrEqual(1);
  },
};
