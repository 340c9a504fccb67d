import type { Meta, StoryObj } from '@storybook/react-vite';
import { Textarea } from 'ayah-coach';
import { expect, userEvent, within } from 'storybook/test';

const meta = {
  title: 'UI/Textarea',
  component: Textarea,
  args: { 'aria-label': 'Bio', placeholder: 'Tell us about yourself', rows: 3 },
  decorators: [
    (Story) => (
      <div style={{ maxWidth: 360 }}>
        <Story />
      </div>
    ),
  ],
} satisfies Meta<typeof Textarea>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvasElement }) => {
    const textarea = within(canvasElement).getByRole('textbox', { name: 'Bio' });
    await userEvent.click(textarea);
    await userEvent.keyboard('I like maths.{Shift>}{Enter}{/Shift}And history.');
    await expect(textarea).toHaveValue('I like maths.\nAnd history.');
  },
};
